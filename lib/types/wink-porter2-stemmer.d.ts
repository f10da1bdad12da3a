// Types for wink-porter2-stemmer 2.0.1 (the package ships none): one function, word -> stem.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
