/**
 * The authenticated company for the rest of a request, so that input schemas
 * (which see only the input) can check that a cursor belongs to the caller.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const storage = new AsyncLocalStorage<{ companyId: string }>();

export const runInCompanyScope = <T>(companyId: string, run: () => T): T => storage.run({ companyId }, run);

export const scopedCompanyId = (): string | null => storage.getStore()?.companyId ?? null;
