import Database from 'better-sqlite3';
import { verifyChain } from '../electron/core/audit/verify';
const db = new Database(process.argv[2]!, { readonly: true });
for (let i = 0; i < 3; i++) { const t = performance.now(); verifyChain(db, { signatures: 'run-ends' }); console.log(performance.now() - t); }
