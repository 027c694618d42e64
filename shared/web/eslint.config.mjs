// ESLint's flat configuration for the web client (docs/web.md, "Checks"), run by
// tests/web/test_js_checks.py from shared/web. It imports nothing, so it needs no package beside
// eslint itself: the rules are eslint:recommended's, written out, and the house rules of the
// client's modules (the one fetch, the one element lookup, the one place API paths are written).

// eslint:recommended (ESLint 9)
const RECOMMENDED = [
  "constructor-super", "for-direction", "getter-return", "no-async-promise-executor", "no-case-declarations",
  "no-class-assign", "no-compare-neg-zero", "no-cond-assign", "no-const-assign", "no-constant-binary-expression",
  "no-constant-condition", "no-control-regex", "no-debugger", "no-delete-var", "no-dupe-args",
  "no-dupe-class-members", "no-dupe-else-if", "no-dupe-keys", "no-duplicate-case", "no-empty",
  "no-empty-character-class", "no-empty-pattern", "no-empty-static-block", "no-ex-assign", "no-extra-boolean-cast",
  "no-fallthrough", "no-func-assign", "no-global-assign", "no-import-assign", "no-invalid-regexp",
  "no-irregular-whitespace", "no-loss-of-precision", "no-misleading-character-class", "no-new-native-nonconstructor",
  "no-nonoctal-decimal-escape", "no-obj-calls", "no-octal", "no-prototype-builtins", "no-redeclare",
  "no-regex-spaces", "no-self-assign", "no-setter-return", "no-shadow-restricted-names", "no-sparse-arrays",
  "no-this-before-super", "no-undef", "no-unexpected-multiline", "no-unreachable", "no-unsafe-finally",
  "no-unsafe-negation", "no-unsafe-optional-chaining", "no-unused-labels", "no-unused-private-class-members",
  "no-unused-vars", "no-useless-backreference", "no-useless-catch", "no-useless-escape", "no-with",
  "require-yield", "use-isnan", "valid-typeof",
];

// What the pages' modules may name of the browser: anything else is a typo (no-undef).
const BROWSER = [
  "CSS", "CustomEvent", "Element", "EventSource", "HTMLAnchorElement", "HTMLButtonElement", "HTMLDivElement",
  "HTMLElement", "HTMLFormElement", "HTMLInputElement", "HTMLOListElement", "HTMLOutputElement",
  "HTMLSelectElement", "HTMLDetailsElement", "HTMLFieldSetElement", "HTMLTableSectionElement", "HTMLTextAreaElement", "HTMLUListElement",
  "IntersectionObserver", "Intl", "MouseEvent", "Notification", "SVGElement", "SVGGraphicsElement",
  "URL", "URLSearchParams", "atob", "clearTimeout", "document", "fetch", "history", "localStorage", "location",
  "navigator", "self", "setInterval", "setTimeout", "window",
];

// A path of the API written as a literal: endpoints.js builds them all.
const API_PATH = "/^\\/(games|variants|me|auth)(\\/|\\?|$)/";

export default [
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: Object.fromEntries(BROWSER.map((name) => [name, "readonly"])),
    },
    linterOptions: {reportUnusedDisableDirectives: "error"},
    rules: {
      ...Object.fromEntries(RECOMMENDED.map((rule) => [rule, "error"])),
      "eqeqeq": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-restricted-globals": ["error",
        {name: "fetch", message: "api.js is the one module that asks the server: use api()"},
        {name: "EventSource", message: "api.js opens the live stream: use openStream()"}],
      "no-restricted-properties": ["error",
        {object: "document", property: "getElementById", message: "look elements up once with dom.js' byId"}],
      "no-restricted-syntax": ["error",
        {selector: `Literal[value=${API_PATH}]`, message: "API paths are built in endpoints.js"},
        {selector: `TemplateElement[value.raw=${API_PATH}]`, message: "API paths are built in endpoints.js"}],
    },
  },
  {
    files: ["static/api.js"],
    rules: {"no-restricted-globals": "off"},
  },
  {
    files: ["static/dom.js"],
    rules: {"no-restricted-properties": "off"},
  },
  {
    files: ["static/endpoints.js"],
    rules: {"no-restricted-syntax": "off"},
  },
];
