// express: the benchmark scenarios on plain Express 4 (usage: `node app.js PORT OPENAPI_FILE`).
//
// Rules: express.json() for the body and Express's router for the paths, with express's default
// settings (ETag, X-Powered-By) left on; the parameter and body validation is hand-written, as an
// Express service without a schema library writes it, and answers FastAPI's 422 body (the
// service's) for the cases it checks. `/openapi.json` serves the service's own document (captured
// by the harness into OPENAPI_FILE), as the other peers do. One process, no cluster: the PID the
// harness reads /proc/PID/stat of is the serving process itself.
//
// The one adjustment to idiomatic Express: res.json() answers `application/json; charset=utf-8`,
// the service `application/json` (the verify step compares the Content-Type byte for byte), so
// answers go through sendJson(), which sets the header itself and sends the JSON text as a Buffer
// (res.send() keeps a Buffer's Content-Type as set).
'use strict';

const fs = require('fs');
const express = require('express');

const port = Number(process.argv[2] || 8000);
let openapi = Buffer.from('{}');
try {
  if (process.argv[3]) openapi = fs.readFileSync(process.argv[3]);
} catch (_) {
  // keep "{}", like the Rust peers
}

const LONG_DESCRIPTION = 'This is an amazing item that has a long description';
const PERSONS = [
  'Ada Lovelace',
  'Alan Turing',
  'Grace Hopper',
  'Edsger Dijkstra',
  'Barbara Liskov',
  'Donald Knuth',
  'Margaret Hamilton',
  'Dennis Ritchie',
  'Frances Allen',
  'Ken Thompson',
];

function sendJson(res, status, value) {
  res.status(status);
  res.setHeader('Content-Type', 'application/json');
  res.send(Buffer.from(JSON.stringify(value)));
}

// One entry of FastAPI's (pydantic's) validation error list.
function error(type, loc, msg, input, ctx) {
  const e = { type, loc, msg, input };
  if (ctx !== undefined) e.ctx = ctx;
  return e;
}

function send422(res, errors) {
  sendJson(res, 422, { detail: errors });
}

// An integer from a path or query string (optional sign, digits, a safe JS integer), or an
// int_parsing error. Stricter than pydantic, which also takes " 5", "5.0", "1_000" and big
// integers; none of them is a benchmark scenario.
const INTEGER = /^[+-]?\d+$/;
function parseInt64(text, loc, errors) {
  const n = INTEGER.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) {
    errors.push(error('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', text));
    return undefined;
  }
  return n;
}

// pydantic's lenient bool.
const TRUE = new Set(['1', 'true', 't', 'yes', 'y', 'on']);
const FALSE = new Set(['0', 'false', 'f', 'no', 'n', 'off']);
function parseBool(text, loc, errors) {
  const lower = text.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  errors.push(error('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', text));
  return undefined;
}

// A query parameter as a single string (the last one when repeated, as FastAPI takes it).
function queryParam(req, name) {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return String(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

// A float field of a JSON body (pydantic's lax mode: a number, or a string holding one).
function floatField(body, name, required, errors) {
  const value = body[name];
  const loc = ['body', name];
  if (value === undefined) {
    if (required) errors.push(error('missing', loc, 'Field required', body));
    return null;
  }
  if (value === null && !required) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (typeof value === 'string') {
    errors.push(error('float_parsing', loc, 'Input should be a valid number, unable to parse string as a number', value));
  } else {
    errors.push(error('float_type', loc, 'Input should be a valid number', value));
  }
  return null;
}

// A string field of a JSON body.
function stringField(body, name, required, errors) {
  const value = body[name];
  const loc = ['body', name];
  if (value === undefined) {
    if (required) errors.push(error('missing', loc, 'Field required', body));
    return null;
  }
  if (value === null && !required) return null;
  if (typeof value === 'string') return value;
  errors.push(error('string_type', loc, 'Input should be a valid string', value));
  return null;
}

const app = express();
app.use(express.json());

app.get('/', (req, res) => {
  sendJson(res, 200, { message: 'Hello World' });
});

app.get('/openapi.json', (req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.send(openapi);
});

app.get('/item/:id', (req, res) => {
  const errors = [];
  const id = parseInt64(req.params.id, ['path', 'id'], errors);
  if (errors.length) return send422(res, errors);
  sendJson(res, 200, { id });
});

app.get('/user/:userId/item/:itemId', (req, res) => {
  const errors = [];
  const ownerId = parseInt64(req.params.userId, ['path', 'user_id'], errors);
  const q = queryParam(req, 'q');
  const shortText = queryParam(req, 'short');
  const short = shortText === undefined ? false : parseBool(shortText, ['query', 'short'], errors);
  if (errors.length) return send422(res, errors);
  const item = { item_id: req.params.itemId, owner_id: ownerId };
  if (q) item.q = q;
  if (!short) item.description = LONG_DESCRIPTION;
  sendJson(res, 200, item);
});

app.get('/person', (req, res) => {
  const errors = [];
  const bounded = (name, fallback) => {
    const text = queryParam(req, name);
    if (text === undefined) return fallback;
    const loc = ['query', name];
    const n = parseInt64(text, loc, errors);
    if (n !== undefined && n < 0) {
      errors.push(error('greater_than_equal', loc, 'Input should be greater than or equal to 0', text, { ge: 0 }));
    }
    return n;
  };
  const skip = bounded('skip', 0);
  const limit = bounded('limit', 5);
  if (errors.length) return send422(res, errors);
  sendJson(res, 200, PERSONS.slice(skip, skip + limit).map((name) => ({ name })));
});

app.post('/item', (req, res) => {
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return send422(res, [
      error('model_attributes_type', ['body'], 'Input should be a valid dictionary or object to extract fields from', body),
    ]);
  }
  const errors = [];
  const name = stringField(body, 'name', true, errors);
  const description = stringField(body, 'description', false, errors);
  const price = floatField(body, 'price', true, errors);
  const tax = floatField(body, 'tax', false, errors);
  if (errors.length) return send422(res, errors);
  const out = { name, description, price, tax };
  if (tax !== null) out.price_with_tax = price + tax;
  sendJson(res, 200, out);
});

app.use((req, res) => {
  sendJson(res, 404, { detail: 'Not Found' });
});

// express.json()'s errors (malformed JSON, too large) and any other, as JSON.
// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
  if (err && err.type === 'entity.parse.failed') {
    return send422(res, [error('json_invalid', ['body', 0], 'JSON decode error', {}, { error: err.message })]);
  }
  const status = err && err.status >= 400 && err.status < 600 ? err.status : 500;
  sendJson(res, status, { detail: status === 500 ? 'Internal Server Error' : String(err.message || err) });
});

app.listen(port, '127.0.0.1');
