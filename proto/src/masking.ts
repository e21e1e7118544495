/**
 * An e-mail address shown to someone who is not its owner: enough to recognise a known address, too little to learn
 * an unknown one. The first character of the local part and of the domain's first label stay, each followed by three
 * stars whatever was there (so the length is not told); the rest of the domain from its first dot stays as it is:
 * `dana.cohen@example.co.il` → `d***@e***.co.il` (docs/product.md, Ledger, Transfer).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.');
  const firstLabel = dot === -1 ? domain : domain.slice(0, dot);
  const rest = dot === -1 ? '' : domain.slice(dot);
  return `${firstCharacter(local)}***@${firstCharacter(firstLabel)}***${rest}`;
}

function firstCharacter(text: string): string {
  return [...text][0] ?? '';
}
