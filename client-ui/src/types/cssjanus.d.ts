// CSSJanus ships no type declarations; these cover the one function the RTL plugin calls.
declare module 'cssjanus' {
  const cssjanus: {
    transform(css: string, options?: { transformDirInUrl?: boolean; transformEdgeInUrl?: boolean }): string;
  };
  export default cssjanus;
}
