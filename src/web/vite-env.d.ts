/** Vite's asset imports, as used by tool pages (`pdfjs-dist/build/pdf.worker.min.mjs?url`). */
declare module '*?url' {
  const url: string;
  export default url;
}
