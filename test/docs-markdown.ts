// What the docs check reads from the docs: table rows (endpoint rows: method | path | …; settings
// rows: `PMX_X` | default | meaning), headings' anchors as GitHub makes them, and relative links.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { ROOT } from './docs-sources.ts';

const markdown = new MarkdownIt();
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);

/** The markdown files the check covers: README.md, docs/**, bench/README.md. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', ...walk('docs'), 'bench/README.md'].filter((file) => existsSync(join(ROOT, file)));
}

function tokensOf(file: string): Token[] {
  return markdown.parse(readFileSync(join(ROOT, file), 'utf8'), {});
}

/** Each table row's cells as plain text (code spans unwrapped). */
export function tableRows(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (const token of markdown.parse(source, {})) {
    if (token.type === 'tr_open') row = [];
    else if (token.type === 'tr_close' && row !== undefined) rows.push(row);
    else if (token.type === 'inline' && row !== undefined) row.push(plainText(token));
  }
  return rows;
}

function plainText(inline: Token): string {
  return (inline.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('')
    .trim();
}

/** Endpoint rows: a method in the first cell, a path in the second (one endpoint a row). */
export function endpointRows(source: string): { method: string; path: string }[] {
  return tableRows(source)
    .filter((cells) => METHODS.has(cells[0] ?? '') && (cells[1] ?? '').startsWith('/'))
    .map((cells) => ({ method: cells[0]!, path: cells[1]! }));
}

/** Settings rows: a variable alone in the first cell. */
export function settingRows(source: string): string[] {
  return tableRows(source)
    .map((cells) => cells[0] ?? '')
    .filter((cell) => /^PMX_[A-Z0-9_]+$/.test(cell));
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** The anchors GitHub gives a file's headings, in order (a repeated heading gets -1, -2, …). */
export function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = tokensOf(file);
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') anchors.add(slugger.slug(plainText(tokens[i + 1]!)));
  });
  return anchors;
}

function linksOf(tokens: Token[]): string[] {
  return tokens.flatMap((token) =>
    (token.children ?? []).filter((child) => child.type === 'link_open').map((child) => child.attrGet('href') ?? ''),
  );
}

/** Every relative link of a file that does not resolve, as `file: link (why)`. */
export function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const href of linksOf(tokensOf(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // http:, mailto: …
    const [target = '', anchor] = href.split('#');
    const path = target === '' ? join(ROOT, file) : join(dirname(join(ROOT, file)), decodeURIComponent(target));
    if (!existsSync(path)) {
      broken.push(`${file}: ${href} (no such file)`);
      continue;
    }
    if (anchor === undefined) continue;
    const targetFile = relative(ROOT, path);
    if (statSync(path).isDirectory() || !targetFile.endsWith('.md'))
      broken.push(`${file}: ${href} (anchor on a non-markdown file)`);
    else if (!anchorsOf(targetFile).has(anchor))
      broken.push(`${file}: ${href} (no heading #${anchor} in ${targetFile})`);
  }
  return broken;
}
