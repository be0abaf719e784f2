/** The device identity line of the manifest's "identity" events (start and every resume); pure. */
export function identityText(t: {path: string; sizeBytes: number; identity: {serial: string | null; model: string | null}}): string {
  return `serial ${t.identity.serial ?? 'none'}; model ${t.identity.model ?? 'none'}; capacity ${t.sizeBytes} B; path ${t.path}`
}
