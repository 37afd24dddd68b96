import { Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { pathParameterNames } from '../../facades/rest/openapi/paths.ts';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { prepareOperation } from '../../schema/execute.ts';

describe('REST route table documents', () => {
  it('has rows to check', () => {
    expect(restRoutes.length).toBeGreaterThan(0);
  });

  it.each(restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: the document is valid against the schema',
    (_name, route) => {
      expect(() => prepareOperation(route.document)).not.toThrow();
    },
  );

  it('operationIds are unique', () => {
    const ids = restRoutes.map((route) => route.operationId);
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(duplicates).toEqual([]);
  });

  it('method and path pairs are unique', () => {
    const keys = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('every select names a top-level response key of its document', () => {
    const problems: string[] = [];
    for (const route of restRoutes) {
      if (route.select === undefined) continue;
      const { operation } = prepareOperation(route.document);
      const keys = operation.selectionSet.selections.flatMap((selection) =>
        selection.kind === Kind.FIELD ? [selection.alias?.value ?? selection.name.value] : [],
      );
      if (!keys.includes(route.select))
        problems.push(`${route.operationId}: ${route.select} not in [${keys}]`);
    }
    expect(problems).toEqual([]);
  });

  it('every path parameter has a variable that reads it from the path', () => {
    const problems: string[] = [];
    for (const route of restRoutes) {
      const fromPath = Object.values(route.variables ?? {})
        .filter((source) => source.from === 'path')
        .map((source) => source.name);
      for (const name of pathParameterNames(route.path)) {
        if (!fromPath.includes(name)) problems.push(`${route.operationId}: :${name} has no path variable`);
      }
      for (const name of fromPath) {
        if (!pathParameterNames(route.path).includes(name))
          problems.push(`${route.operationId}: path variable ${name} is not in ${route.path}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every mapped variable is a variable of the document', () => {
    const problems: string[] = [];
    for (const route of restRoutes) {
      const { operation } = prepareOperation(route.document);
      const defined = (operation.variableDefinitions ?? []).map((d) => d.variable.name.value);
      for (const variable of Object.keys(route.variables ?? {})) {
        if (!defined.includes(variable)) problems.push(`${route.operationId}: $${variable} is not defined`);
      }
    }
    expect(problems).toEqual([]);
  });
});
