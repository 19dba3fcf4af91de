// pmx names the official client's POLY_ headers SVC_ (POLY_ADDRESS → SVC_ADDRESS, …). A bot keeps
// the client unchanged and renames them on the way out, in the axios instance the client uses.
import axios from 'axios';

/** Renames every POLY_ request header to SVC_; returns a function that stops it. */
export function renamePolyHeaders(): () => void {
  const id = axios.interceptors.request.use((config) => {
    for (const name of Object.keys(config.headers.toJSON())) {
      if (!/^POLY_/i.test(name)) continue;
      const value = config.headers.get(name);
      config.headers.delete(name);
      config.headers.set(name.replace(/^POLY_/i, 'SVC_'), value);
    }
    return config;
  });
  return () => axios.interceptors.request.eject(id);
}
