// The baseline: a bare Fastify route answering a small JSON object, nothing else registered.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/v1/', async () => ({ success: true, data: { name: 'csai', version: 'bare', time: new Date().toISOString() }, message: '' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
