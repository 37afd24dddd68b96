export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch with JSON in and out; the body is parsed when the answer is JSON, else returned as text. */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body,
    redirect: 'manual',
    signal: options.signal,
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    headers: response.headers,
    body: (isJson && text ? JSON.parse(text) : text) as T,
  };
}

export async function graphql<T = any>(
  baseUrl: string,
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
) {
  return request<{ data?: T; errors?: { message: string; extensions: Record<string, unknown> }[] }>(
    baseUrl,
    'POST',
    '/graphql',
    {
      token,
      body: { query, variables },
    },
  );
}
