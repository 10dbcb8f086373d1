// esbuild bundles the style sheet that main.ts imports into its own .css file; TypeScript only needs to accept it.
declare module '*.css';
