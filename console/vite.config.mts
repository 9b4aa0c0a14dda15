import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The service the dev server forwards API calls to (`npm start` on port 3000 by default). */
const target = process.env.CONSOLE_API_TARGET ?? 'http://127.0.0.1:3000';
const apiPaths = ['/api', '/mcp', '/health', '/metrics', '/openapi.json', '/docs', '/tools'];

/**
 * The operator console: Preact, built by Vite into `dist/console`, served by the front door at `/`
 * (docs/console.md). `changeOrigin: false` keeps the browser's Host, so the API's same-origin check
 * (Origin = Host) holds through the dev proxy.
 */
export default defineConfig({
  root,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or data: modules: the CSP allows only the console's own files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    strictPort: true,
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: Object.fromEntries(apiPaths.map((p) => [p, { target, changeOrigin: false }])),
  },
});
