#!/usr/bin/env node
/**
 * Dead-reference checker: the repository must stand alone, so every file, heading and section it points at must be
 * in it. Run `node testing/check-links.mjs` (from anywhere inside the working tree, or with the tree's path as the
 * only argument). It prints `file:line: what` for every dead reference and exits 1; with none it exits 0. Node 20,
 * standard library only.
 *
 * What it checks, in the files `git ls-files` lists (as they are in the working tree):
 * - Markdown (*.md): every relative link `[text](path)`, `[text](path#anchor)`, `[text](#anchor)` and reference
 *   definition `[id]: path`, resolved against the file's folder (`/path` against the repository root). The target
 *   must exist (a file or a folder); an `#anchor` into a Markdown file must be the GitHub slug of one of its headings
 *   (or an explicit `<a id>`/`<a name>`). Links inside code blocks and code spans are not links.
 * - Source (*.ts, *.tsx, *.mts, *.cts, *.js, *.jsx, *.mjs, *.cjs; not *.json): every repository path cited in a
 *   comment — at least one `/` and a known extension, e.g. `lib/payments.ts`, `docs/order-states.md`,
 *   `scripts/dev.ts`, `@/lib/env.ts` — must exist, resolved against the repository root or the file's folder
 *   (one starting with `../` against the folder only). A Markdown path with an `#anchor` in a comment is checked
 *   like a link.
 * - Everywhere (Markdown and source, comments and code): no mention of a Markdown document (`*.md`, with or
 *   without a folder) that the repository does not contain — a clone has nothing else to follow — and no section
 *   number (a section sign and digits), which can only point into a document outside it. The shop's account of the
 *   payment service is docs/payment-service.md; cite its headings instead.
 * - Heading citations, in Markdown and in comments. THE citation form for a section of a Markdown file is its path,
 *   a comma and the exact heading text in double quotes:
 *
 *       docs/payment-service.md, "Access token"
 *
 *   The heading must exist in that file (any level; inline code backticks and surrounding spaces do not count). A
 *   citation may wrap onto the next comment line. Prefer this form in code; in Markdown, a link with an anchor
 *   (`[Access token](payment-service.md#access-token)`) is the clickable equivalent and is checked too.
 *
 * Ignored: URLs (any `scheme:` link or `http(s)://…` text), `node_modules/`, `.next…/` folders, `test-results/`,
 * and paths cited under them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
/** Extensions a cited path in a comment may end with. */
const CITED_EXTENSIONS =
  "tsx|ts|mts|cts|jsx|js|mjs|cjs|json|mdx|md|css|scss|sql|ya?ml|sh|toml|html|svg|png|jpe?g|conf|txt";
const IGNORED =
  /^(?:node_modules|\.next[^/]*|test-results)(?:\/|$)|\/(?:node_modules|\.next[^/]*|test-results)(?:\/|$)/;

/** A Markdown document named anywhere; it must be one the repository contains. */
const MARKDOWN_MENTION = /(?<![\w.\/@-])(?:[\w.-]+\/)*[\w-]+\.md(?![\w-])/g;
/** A section number, which can only point into a document outside the repository. */
const SECTION_NUMBER = /§\s*\d+(?:\.\d+)*/g;

/** Keywords after which a `/` starts a regular expression literal, not a division. */
const REGEX_KEYWORDS = new Set(
  "return typeof case do else in of new delete void throw instanceof yield await".split(" "),
);
/** Per Markdown file: its anchors and its heading texts. */
const anchorCache = new Map();

const root = findRoot(process.argv[2] ?? process.cwd());
const git = (...args) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

/** Files and folders a reference may point at: tracked or new (not ignored), and present in the working tree. */
const present = new Set();
for (const file of git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")) {
  if (!file || !existsSync(path.join(root, file))) continue;
  present.add(file);
  for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) present.add(`${dir}/`);
}
const exists = (relative) => present.has(relative) || present.has(`${relative.replace(/\/$/, "")}/`);

const problems = new Map();
const report = (file, line, message) =>
  problems.set(`${file}\0${String(line).padStart(8, "0")}\0${message}`, `${file}:${line}: ${message}`);

const tracked = git("ls-files", "-z")
  .split("\0")
  .filter((file) => file && !IGNORED.test(file) && existsSync(path.join(root, file)));
let markdownCount = 0;
let sourceCount = 0;
for (const file of tracked) {
  const extension = path.posix.extname(file);
  if (extension === ".md") {
    markdownCount++;
    checkMarkdown(file);
  } else if (SOURCE_EXTENSIONS.has(extension)) {
    sourceCount++;
    checkSource(file);
  }
}

const lines = [...problems.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, text]) => text);
if (lines.length > 0) {
  console.log(lines.join("\n"));
  const files = `${markdownCount} Markdown, ${sourceCount} source files checked`;
  console.log(`\ncheck-links: ${lines.length} dead reference${lines.length === 1 ? "" : "s"} (${files})`);
  process.exit(1);
}
console.log(`check-links: no dead references (${markdownCount} Markdown, ${sourceCount} source files checked)`);

// --- Markdown -------------------------------------------------------------------------------------------------------

function checkMarkdown(file) {
  const text = readFileSync(path.join(root, file), "utf8");
  const lineOf = lineIndex(text);
  const dir = path.posix.dirname(file);
  const inFence = fencedLines(text);
  text.split("\n").forEach((line, index) => {
    if (inFence[index]) return;
    const code = maskCodeSpans(line);
    for (const destination of inlineLinkDestinations(code)) checkLink(file, dir, index + 1, destination);
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(code);
    if (definition) checkLink(file, dir, index + 1, definition[1]);
  });
  const flat = maskUrls(text).replace(/\n/g, " ");
  checkMissingDocuments(file, flat, lineOf);
  checkHeadingCitations(file, flat, lineOf);
}

/** Resolves one link destination and reports it when its file, folder or anchor does not exist. */
function checkLink(file, dir, line, raw) {
  let destination = raw.startsWith("<") && raw.endsWith(">") ? raw.slice(1, -1) : raw;
  if (/^[a-z][a-z0-9+.-]*:/i.test(destination) || destination.startsWith("//")) return; // a URL
  const hash = destination.indexOf("#");
  const anchor = hash === -1 ? null : destination.slice(hash + 1);
  destination = (hash === -1 ? destination : destination.slice(0, hash)).replace(/\?.*$/, "");
  let target = file;
  if (destination) {
    let decoded = destination;
    try {
      decoded = decodeURIComponent(destination);
    } catch {}
    target = decoded.startsWith("/") ? path.posix.normalize(decoded.slice(1)) : path.posix.join(dir, decoded);
    if (target.startsWith("../") || IGNORED.test(target)) {
      if (target.startsWith("../")) report(file, line, `link ${raw}: points outside the repository`);
      return;
    }
    if (!exists(target)) {
      report(file, line, `link ${raw}: ${target} does not exist`);
      return;
    }
  }
  if (anchor && target.endsWith(".md") && present.has(target) && !markdownAnchors(target).has(anchor.toLowerCase())) {
    report(file, line, `link ${raw}: ${target} has no heading with the anchor #${anchor}`);
  }
}

/** The destinations of `[text](destination "title")` links on one line (parentheses in paths balanced). */
function inlineLinkDestinations(line) {
  const found = [];
  for (let at = line.indexOf("]("); at !== -1; at = line.indexOf("](", at + 2)) {
    let i = at + 2;
    while (line[i] === " ") i++;
    if (line[i] === "<") {
      const end = line.indexOf(">", i);
      if (end !== -1) found.push(line.slice(i, end + 1));
      continue;
    }
    let depth = 0;
    const start = i;
    for (; i < line.length; i++) {
      const c = line[i];
      if (c === "\\") i++;
      else if (c === "(") depth++;
      else if (c === ")" && depth-- === 0) break;
      else if (c === " " || c === "\t") break;
    }
    if (i > start) found.push(line.slice(start, i));
  }
  return found;
}

/** Per line: whether it is inside (or fences) a fenced code block. */
function fencedLines(text) {
  const result = [];
  let fence = null;
  for (const line of text.split("\n")) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      result.push(true);
      if (match && match[1][0] === fence[0] && match[1].length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line))
        fence = null;
    } else if (match) {
      result.push(true);
      fence = match[1];
    } else {
      result.push(false);
    }
  }
  return result;
}

/** The line with its code spans blanked out (same length). */
function maskCodeSpans(line) {
  return line.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => " ".repeat(span.length));
}

/** The anchors a Markdown file offers: GitHub slugs of its headings (with -1, -2 for repeats) and explicit ids. */
function markdownAnchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file).anchors;
  const text = readFileSync(path.join(root, file), "utf8");
  const anchors = new Set();
  const headings = new Set();
  const seen = new Map();
  const inFence = fencedLines(text);
  const lines = text.split("\n");
  const add = (heading) => {
    headings.add(normaliseHeading(heading));
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  lines.forEach((line, index) => {
    if (inFence[index]) return;
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) add(atx[1] ?? "");
    else if (/^ {0,3}(?:=+|-+)[ \t]*$/.test(line) && index > 0 && !inFence[index - 1]) {
      const previous = lines[index - 1];
      if (previous.trim() && !/^ {0,3}(?:#|[-*+>|]|\d+[.)])/.test(previous)) add(previous.trim());
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi))
      anchors.add(match[1].toLowerCase());
  });
  anchorCache.set(file, { anchors, headings });
  return anchors;
}

/** The exact heading texts of a Markdown file, as {@link normaliseHeading} writes them. */
function markdownHeadings(file) {
  markdownAnchors(file);
  return anchorCache.get(file).headings;
}

/** A heading's text as a citation may write it: no code backticks, single spaces. */
function normaliseHeading(text) {
  return text.replace(/`/g, "").replace(/\s+/g, " ").trim();
}

/** GitHub's anchor for a heading: its text without markup, lowercased, punctuation dropped, spaces as hyphens. */
function githubSlug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

// --- Source ---------------------------------------------------------------------------------------------------------

function checkSource(file) {
  const text = readFileSync(path.join(root, file), "utf8");
  const lineOf = lineIndex(text);
  const dir = path.posix.dirname(file);
  checkMissingDocuments(file, maskUrls(text).replace(/\n/g, " "), lineOf);

  const comments = maskUrls(commentsOnly(text)).replace(/\n/g, " ");
  checkHeadingCitations(file, comments, lineOf);
  const cited = new RegExp(
    String.raw`(?<![\w.@/*{-])(@\/|\.{1,2}\/)?((?:(?:\([\w-]+\)|\[[\w.-]+\]|[\w.-]+)\/)+[\w.-]*\w\.(?:${CITED_EXTENSIONS}))(?![\w/-])(#[\p{L}\p{N}_-]+)?`,
    "gu",
  );
  for (const match of comments.matchAll(cited)) {
    const [, prefix = "", citedPath, anchor] = match;
    const line = lineOf(match.index);
    const candidates =
      prefix === "@/"
        ? [citedPath]
        : prefix === "../"
          ? [path.posix.join(dir, prefix + citedPath)]
          : [path.posix.normalize(citedPath), path.posix.join(dir, citedPath)];
    if (candidates.some((candidate) => IGNORED.test(candidate))) continue;
    const target = candidates.find((candidate) => !candidate.startsWith("../") && exists(candidate));
    if (!target) {
      report(file, line, `comment cites ${prefix}${citedPath}, which does not exist`);
    } else if (anchor && target.endsWith(".md") && !markdownAnchors(target).has(anchor.slice(1).toLowerCase())) {
      report(file, line, `comment cites ${prefix}${citedPath}${anchor}: no heading with that anchor`);
    }
  }
}

/**
 * The source text with everything but comments blanked out (same length, newlines kept), comment markers (`//`,
 * the opening and closing markers of block comments, their leading `*`) blanked too, so a citation may run on across
 * lines. Knows strings, template literals (with `${}` nesting) and regular expression literals well enough not to
 * take a `//` in them for a comment; JSX text is not told apart from code, so a `//` in it starts a "comment".
 */
function commentsOnly(text) {
  const out = new Array(text.length);
  const keep = (from, to) => {
    for (let k = from; k < to; k++) out[k] = text[k];
  };
  const blank = (from, to) => {
    for (let k = from; k < to; k++) out[k] = text[k] === "\n" ? "\n" : " ";
  };
  const templates = []; // brace depth at which each open template literal's `${` started
  let braces = 0;
  let last = ""; // last significant code character, or an identifier/keyword
  let i = 0;
  const skipString = (quote) => {
    let j = i + 1;
    while (j < text.length && text[j] !== quote && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
    return Math.min(j + 1, text.length);
  };
  const skipTemplate = (from) => {
    // From inside a template literal to its end, or to a `${` (returns [end, opensExpression]).
    let j = from;
    while (j < text.length) {
      if (text[j] === "\\") j += 2;
      else if (text[j] === "`") return [j + 1, false];
      else if (text[j] === "$" && text[j + 1] === "{") return [j + 2, true];
      else j++;
    }
    return [j, false];
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
      keep(i, end);
      i = end;
    } else if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close === -1 ? text.length : close + 2;
      keep(i, end);
      i = end;
    } else if (c === '"' || c === "'") {
      const end = skipString(c);
      blank(i, end);
      i = end;
      last = "a";
    } else if (c === "`" || (c === "}" && templates.length > 0 && templates.at(-1) === braces)) {
      if (c === "}") templates.pop();
      const [end, opens] = skipTemplate(i + 1);
      if (opens) templates.push(braces);
      blank(i, end);
      i = end;
      last = opens ? "(" : "a";
    } else if (c === "/" && (last === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(last) || REGEX_KEYWORDS.has(last))) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n") {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        else if (text[j] === "/" && !inClass) break;
        j++;
      }
      while (j + 1 < text.length && /[a-z]/i.test(text[j + 1])) j++;
      blank(i, j + 1);
      i = j + 1;
      last = "a";
    } else if (/[\w$]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$]/.test(text[j])) j++;
      last = text.slice(i, j);
      blank(i, j);
      i = j;
    } else {
      if (c === "{") braces++;
      else if (c === "}") braces--;
      if (!/\s/.test(c)) last = c;
      blank(i, i + 1);
      i++;
    }
  }
  return out
    .join("")
    .split("\n")
    .map((line) =>
      line.replace(/^(\s*)(\/\/+|\/\*+|\*+(?!\/))/, (marker) => " ".repeat(marker.length)).replace(/\*\//g, "  "),
    )
    .join("\n");
}

// --- Shared ---------------------------------------------------------------------------------------------------------

function checkMissingDocuments(file, text, lineOf) {
  const dir = path.posix.dirname(file);
  const perLine = new Map();
  const note = (index, name, what) => {
    const key = `${lineOf(index)}\t${what}`;
    perLine.set(key, (perLine.get(key) ?? new Set()).add(name.replace(/\s+/g, "")));
  };
  for (const match of text.matchAll(MARKDOWN_MENTION)) {
    if (!markdownInRepository(match[0], dir)) note(match.index, match[0], "a document the repository does not have");
  }
  for (const match of text.matchAll(SECTION_NUMBER)) {
    note(match.index, match[0], "a section number of a document the repository does not have");
  }
  for (const [key, names] of perLine) {
    const [line, what] = key.split("\t");
    report(file, Number(line), `mentions ${[...names].join(", ")}: ${what}`);
  }
}

/** Whether `name` (a path, or a bare file name) is a Markdown file of the repository, seen from `dir`. */
function markdownInRepository(name, dir) {
  if (!name.includes("/")) return [...present].some((file) => path.posix.basename(file) === name);
  return [path.posix.normalize(name), path.posix.join(dir, name)].some((candidate) => present.has(candidate));
}

/** `<path>.md, "Heading"` citations (the form documented at the top), in text where newlines are spaces. */
function checkHeadingCitations(file, text, lineOf) {
  const citation =
    /(?<![\w.@/-])((?:@\/|\.{1,2}\/)?(?:(?:\([\w-]+\)|\[[\w.-]+\]|[\w.-]+)\/)*[\w.-]+\.md),\s*(?:"([^"]+)"|“([^”]+)”)/g;
  for (const match of text.matchAll(citation)) {
    const [, cited, straight, curly] = match;
    const heading = normaliseHeading(straight ?? curly);
    const line = lineOf(match.index);
    const dir = path.posix.dirname(file);
    const candidates = cited.startsWith("@/")
      ? [cited.slice(2)]
      : cited.startsWith("../")
        ? [path.posix.join(dir, cited)]
        : [path.posix.normalize(cited), path.posix.join(dir, cited)];
    const target = candidates.find((candidate) => present.has(candidate));
    if (!target) {
      // A document the repository does not have is already reported as a mention.
      if (markdownInRepository(cited, dir)) report(file, line, `cites ${cited}, "${heading}": ${cited} does not exist`);
    } else if (!markdownHeadings(target).has(heading)) {
      report(file, line, `cites ${cited}, "${heading}": ${target} has no such heading`);
    }
  }
}

/** Blanks out URLs (same length), so nothing in them is taken for a path or a name. */
function maskUrls(text) {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()"'`]+/gi, (url) => " ".repeat(url.length));
}

/** A function from an offset in `text` to its 1-based line number. */
function lineIndex(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

function findRoot(start) {
  try {
    return execFileSync("git", ["-C", start, "rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  } catch {
    console.error(`check-links: ${start} is not inside a git working tree`);
    process.exit(2);
  }
}
