import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import { flattenMessages } from './messages';
import { SIGNED_OUT_MESSAGES, isSignedOutMessage, pickMessagePart } from './message-parts';

const src = resolve(__dirname, '..');
const ids = Object.keys(flattenMessages(de));

// What a visitor can see before signing in: the public routes and the root route, with everything
// they import, statically or lazily, except what only a signed-in user reaches. Those modules await
// the signed-in messages first (loadSignedInMessages).
const publicEntries = [
  'main.tsx',
  'routes/__root.tsx',
  'routes/index.tsx',
  'routes/login.tsx',
  'routes/einloggen.tsx',
  'routes/forgot-password.tsx',
  'routes/passwort-vergessen.tsx',
  'routes/stripesepa/configure/success/$checkoutSessionId.tsx',
  'routes/stripesepa/reconfigure/success/$checkoutSessionId.tsx',
];
// The admin-only screen is the router's error screen for a route gated by adminOnly: signed-in routes only.
const signedInOnly = [
  /^routes\/_app/,
  /^layout\/signed-in-not-found\.tsx$/,
  /^layout\/admin-only\.tsx$/,
  /^offline\/query-runtime\.tsx$/,
  /^write-kinds\.ts$/,
];

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`].find((file) => existsSync(file) && statSync(file).isFile());
}

function signedOutModules(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const name = relative(src, file);
    if (seen.has(file) || name.startsWith('..') || signedInOnly.some((re) => re.test(name))) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
      const target = resolveImport(file, m[1]!);
      if (target) visit(target);
    }
  };
  for (const entry of publicEntries) visit(join(src, entry));
  return [...seen];
}

/** Message ids a module names: whole ids in quotes, and `prefix.${...}` templates (every id under the prefix). */
function idsUsedBy(file: string): string[] {
  const used = new Set<string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/['`]([a-zA-Z]+\.[\w.]*?)(')|['`]([a-zA-Z]+\.[\w.]*)\$\{/g)) {
    if (m[1] && ids.includes(m[1])) used.add(m[1]);
    if (m[3]) for (const id of ids) if (id.startsWith(m[3])) used.add(id);
  }
  return [...used];
}

describe('message parts', () => {
  it('give the screens before sign-in every message they use', () => {
    const modules = signedOutModules();
    // The walk must reach the sign-in page and must stop before the signed-in shell.
    expect(modules.map((f) => relative(src, f))).toEqual(expect.arrayContaining(['features/auth/login-page.tsx', 'ui/alert-dialog.tsx']));
    expect(modules.map((f) => relative(src, f))).not.toContain('layout/app-shell.tsx');
    const missing = modules.flatMap((file) =>
      idsUsedBy(file)
        .filter((id) => !isSignedOutMessage(id))
        .map((id) => `${id} (${relative(src, file)})`),
    );
    expect(missing, 'add these to SIGNED_OUT_MESSAGES in src/i18n/message-parts.ts').toEqual([]);
  });

  it('split every message into exactly one part', () => {
    const flat = flattenMessages(de);
    const signedOut = Object.keys(pickMessagePart(flat, 'signed-out'));
    const signedIn = Object.keys(pickMessagePart(flat, 'signed-in'));
    expect([...signedOut, ...signedIn].sort()).toEqual(Object.keys(flat).sort());
    expect(signedOut.length).toBeGreaterThan(0);
  });

  it('name only namespaces and keys that exist (a renamed key leaves no dead entry behind)', () => {
    const dead = SIGNED_OUT_MESSAGES.filter((entry) => !ids.some((id) => id === entry || id.startsWith(`${entry}.`)));
    expect(dead).toEqual([]);
  });
});
