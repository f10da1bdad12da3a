export * from './core/scanner.js';
