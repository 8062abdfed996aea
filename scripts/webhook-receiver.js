#!/usr/bin/env node
// A webhook receiver for development: listens on loopback, prints each
// delivery's body as one JSON line, and answers 204. With WEBHOOK_SECRET
// set (the `secret` the subscription's POST answered), it verifies the
// signature with the standardwebhooks package first and answers 400 to a
// delivery that does not verify.
//
//   node scripts/webhook-receiver.js [port]     (default 4000)
'use strict';
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');

const port = Number(process.argv[2] ?? 4000);
const secret = process.env.WEBHOOK_SECRET;
const verifier = secret ? new Webhook(secret) : undefined;

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      if (verifier) verifier.verify(body, req.headers);
    } catch (error) {
      process.stderr.write(`refused ${req.headers['webhook-id']}: ${error.message}\n`);
      res.writeHead(400).end();
      return;
    }
    process.stdout.write(`${body}\n`);
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () =>
  process.stderr.write(
    `Receiving webhooks at http://localhost:${port}/ (${verifier ? 'verifying signatures' : 'not verifying: WEBHOOK_SECRET is not set'})\n`,
  ),
);
