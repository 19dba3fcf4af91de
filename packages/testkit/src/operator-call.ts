// One call to a service's operator API (bearer token), for tests that run services as processes:
// the answer's JSON, or an error naming the path, status and body.

export async function operatorCall(
  baseUrl: string,
  operatorKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}
