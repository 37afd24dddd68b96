import type { ErrorType } from '../../../src/platform/errors.ts';
import { statusForError } from '../errors.ts';
import { ERROR_SCHEMA, ERROR_TYPE_NOTES, ERROR_TYPES } from './errors.ts';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponseOrRef,
} from './types.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Escaped text in which `code spans` become <code>. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.oneOf) return schema.oneOf.map(typeLabel).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any JSON';
  return types
    .map((type) => {
      if (type === 'array') return `array of ${schema.items ? typeLabel(schema.items) : 'any'}`;
      if (type === 'null') return 'null';
      return schema.format ? `${type} (${schema.format})` : type;
    })
    .join(' | ');
}

function constraints(schema: JsonSchema): string {
  const notes: string[] = [];
  if (schema.enum)
    notes.push(
      `one of ${schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`,
    );
  for (const [keyword, label] of [
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ] as const) {
    if (schema[keyword] !== undefined) notes.push(`${label} ${escapeHtml(String(schema[keyword]))}`);
  }
  if (schema.default !== undefined)
    notes.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  if (schema.deprecated) notes.push('deprecated');
  return notes.length > 0 ? ` <span class="notes">(${notes.join('; ')})</span>` : '';
}

/** The object (or array-of-object) schema whose properties nest under a field, if any. */
function nested(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  if (schema.items) return nested(schema.items);
  for (const option of schema.oneOf ?? []) {
    const inner = nested(option);
    if (inner) return inner;
  }
  return undefined;
}

function schemaHtml(schema: JsonSchema, describe = false): string {
  const note =
    describe && schema.description ? `<p class="schema-note">${prose(schema.description)}</p>` : '';
  return `${note}${schemaBody(schema)}`;
}

function schemaBody(schema: JsonSchema): string {
  const object = nested(schema);
  if (!object?.properties) {
    return `<p class="schema-type"><span class="type">${escapeHtml(typeLabel(schema))}</span>${constraints(schema)}${
      schema.$ref ? ` (see <a href="#errors">${escapeHtml(refName(schema.$ref))}</a>)` : ''
    }</p>`;
  }
  const required = new Set(object.required ?? []);
  const items = Object.entries(object.properties).map(([name, property]) => {
    const inner = nested(property);
    return `<li><code class="field">${escapeHtml(name)}</code> <span class="type">${escapeHtml(
      typeLabel(property),
    )}</span>${required.has(name) ? ' <span class="req">required</span>' : ''}${constraints(property)}${
      property.description ? ` — ${prose(property.description)}` : ''
    }${inner ? schemaHtml(inner) : ''}</li>`;
  });
  const top =
    schema === object
      ? ''
      : `<p class="schema-type"><span class="type">${escapeHtml(typeLabel(schema))}</span></p>`;
  return `${top}<ul class="schema">${items.join('')}</ul>`;
}

function parametersHtml(parameters: OpenApiParameter[]): string {
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${escapeHtml(typeLabel(p.schema))}${constraints(
        p.schema,
      )}</td><td>${p.required ? 'yes' : 'no'}</td><td>${p.description ? prose(p.description) : ''}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join(
    '',
  )}</tbody></table>`;
}

function responsesHtml(responses: Record<string, OpenApiResponseOrRef>, document: OpenApiDocument): string {
  const parts: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response) {
      const name = refName(response.$ref);
      const shared = document.components.responses[name];
      parts.push(
        `<li><span class="status">${escapeHtml(status)}</span> <a href="#errors">Error</a>${
          shared ? ` — ${prose(shared.description)}` : ''
        }</li>`,
      );
      continue;
    }
    const bodies = Object.entries(response.content ?? {}).map(
      ([type, media]) =>
        `<div class="media"><span class="media-type">${escapeHtml(type)}</span>${schemaHtml(media.schema, true)}</div>`,
    );
    parts.push(
      `<li><span class="status ok">${escapeHtml(status)}</span> ${prose(response.description)}${bodies.join('')}</li>`,
    );
  }
  return `<h4>Responses</h4><ul class="responses">${parts.join('')}</ul>`;
}

function operationHtml(
  method: string,
  path: string,
  operation: OpenApiOperation,
  document: OpenApiDocument,
): string {
  const bearer = operation.security.length > 0;
  const body = operation.requestBody?.content['application/json']?.schema;
  return `<article class="operation" id="${escapeHtml(slug(operation.operationId))}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${prose(operation.summary)}</p>
<p class="auth">Auth: ${bearer ? '<span class="bearer">bearer token</span>' : '<span class="public">public</span>'} · operationId <code>${escapeHtml(
    operation.operationId,
  )}</code></p>
${operation.parameters?.length ? parametersHtml(operation.parameters) : ''}
${body ? `<h4>Request body${operation.requestBody?.required ? ' (required)' : ''}: application/json</h4>${schemaHtml(body, true)}` : ''}
${responsesHtml(operation.responses, document)}
${
  operation['x-graphql-document']
    ? `<details><summary>GraphQL twin</summary><pre>${escapeHtml(operation['x-graphql-document'])}</pre></details>`
    : ''
}
</article>`;
}

function errorsHtml(): string {
  const fields = Object.entries(ERROR_SCHEMA.properties ?? {}).map(
    ([name, property]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeLabel(property))}</td><td>${
        ERROR_SCHEMA.required?.includes(name) ? 'yes' : 'no'
      }</td><td>${property.description ? prose(property.description) : ''}${
        property.items ? schemaHtml(property.items) : ''
      }</td></tr>`,
  );
  const types = ERROR_TYPES.map(
    (type: ErrorType) =>
      `<tr><td><code>${type}</code></td><td>${type === 'oauth_error' ? '400/401' : statusForError(type)}</td><td>${prose(
        ERROR_TYPE_NOTES[type],
      )}</td></tr>`,
  );
  return `<section id="errors"><h2>Errors</h2>
<p>Every error answers with this JSON envelope; the <code>type</code> fixes the HTTP status. A 401 carries a
<code>WWW-Authenticate</code> header, a 429 a <code>Retry-After</code> header.</p>
<table><thead><tr><th>Field</th><th>Type</th><th>Always</th><th>Description</th></tr></thead><tbody>${fields.join('')}</tbody></table>
<table><thead><tr><th>type</th><th>HTTP</th><th>Meaning</th></tr></thead><tbody>${types.join('')}</tbody></table>
</section>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header,main,nav{max-width:980px;margin:0 auto;padding:0 20px}
header{padding-top:24px}h1 small{font-weight:400;color:#667}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
pre{background:#f0f2f5;padding:10px;overflow:auto;border-radius:4px}
nav ul{columns:2;padding-left:18px}
section>h2{border-bottom:2px solid #dde;padding-bottom:4px;margin-top:40px}
.operation{background:#fff;border:1px solid #e2e5ea;border-radius:6px;padding:4px 16px 12px;margin:16px 0}
.method{display:inline-block;min-width:58px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:2px 6px}
.get{background:#2f7d4f}.post{background:#2a5ea8}.put{background:#9a6a12}.patch{background:#6f4fa8}.delete{background:#a83232}
.type{color:#5a4fa8}.req{color:#a83232;font-size:12px}.notes{color:#667}.status{font-weight:600}
.media-type{color:#667;font-size:13px}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #e2e5ea;padding:4px 8px;text-align:left;vertical-align:top}
ul.schema{margin:4px 0;padding-left:20px}
`;

/** A self-contained HTML reference of the API (no scripts, no external assets), built from the document. */
export function renderApiReference(document: OpenApiDocument): string {
  const server = document.servers[0]?.url ?? '';
  const prefix = server ? new URL(server).pathname.replace(/\/$/, '') : '';
  const byTag = new Map<string, string[]>(document.tags.map((tag) => [tag.name, []]));
  const toc = new Map<string, string[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const fullPath = `${prefix}${path}`;
      const tag = operation.tags[0] ?? 'Other';
      if (!byTag.has(tag)) {
        byTag.set(tag, []);
        toc.set(tag, []);
      }
      byTag.get(tag)?.push(operationHtml(method, fullPath, operation, document));
      toc
        .get(tag)
        ?.push(
          `<li><a href="#${escapeHtml(slug(operation.operationId))}">${method.toUpperCase()} ${escapeHtml(fullPath)}</a></li>`,
        );
    }
  }
  const sections = [...byTag].map(
    ([tag, operations]) =>
      `<section id="tag-${escapeHtml(slug(tag))}"><h2>${escapeHtml(tag)}</h2>${operations.join('\n')}</section>`,
  );
  const contents = [...toc].map(
    ([tag, links]) =>
      `<li><a href="#tag-${escapeHtml(slug(tag))}">${escapeHtml(tag)}</a><ul>${links.join('')}</ul></li>`,
  );
  const bearer = document.components.securitySchemes.bearerAuth;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}: API reference</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
${document.info.description
  .split(/\n\n+/)
  .map((paragraph) => `<p>${prose(paragraph)}</p>`)
  .join('\n')}
<p>Base URL: <code>${escapeHtml(server)}</code> · machine-readable: <a href="${escapeHtml(
    `${prefix}/openapi.json`,
  )}">OpenAPI 3.1</a></p>
</header>
<nav><h2>Contents</h2><ul>${contents.join('')}<li><a href="#authentication">Authentication</a></li><li><a href="#errors">Errors</a></li></ul></nav>
<main>
<section id="authentication"><h2>Authentication</h2><p>${bearer ? prose(bearer.description) : ''}</p>
<p>Endpoints marked <em>public</em> need no token.</p></section>
${sections.join('\n')}
${errorsHtml()}
</main>
</body>
</html>
`;
}
