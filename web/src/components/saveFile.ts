/**
 * Saves text the API or the page made as a file the browser downloads (the
 * CSV exports, the breakdowns, the invoice PDFs: 7-bit ASCII, so the text is
 * the file's bytes).
 */
export function saveFile(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
