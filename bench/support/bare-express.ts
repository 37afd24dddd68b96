/** The floor: an express route answering constant JSON, no auth, no database. */
import express from 'express';

const app = express();
const profile = {
  profile: { id: '00000000-0000-0000-0000-000000000000', email: 'bench@example.com', first_name: 'Bench' },
};
app.get('/v1/me', (_req, res) => {
  res.json(profile);
});
// The same answer to a POST of a small JSON body: what a body costs node and express alone.
app.post('/v1/me', express.json(), (_req, res) => {
  res.json(profile);
});

// Constant answers of the bench's choosing (PUT first): the REST status answer's bytes to a GET and the
// agent's answer's bytes to a POST of its request, so that what HTTP alone makes of the two surfaces'
// requests and answers is measured apart from the service's work.
const answers = { get: '{}', post: '{}' };
app.put('/answers', express.json({ limit: '1mb' }), (req, res) => {
  answers.get = String(req.body.get);
  answers.post = String(req.body.post);
  res.status(204).end();
});
app.get('/answer', (_req, res) => {
  res.type('application/json').send(answers.get);
});
app.post('/answer', express.json(), (_req, res) => {
  res.type('application/json').send(answers.post);
});

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
