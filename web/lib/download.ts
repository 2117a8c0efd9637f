// Saves text the worker produced as a file, through a temporary object URL.
export function saveText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: Chromium starts the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
