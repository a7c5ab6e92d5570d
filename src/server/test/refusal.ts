import { AppError } from '../lib/app-error.ts';

/** What `work` was refused with (an AppError as the API answers it); fails when it was not refused. */
export async function refusalOf(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, message: error.message, fields: error.fields, slots: error.extra?.slots };
  }
  throw new Error('it was not refused');
}

/** What calling `f` was refused with, as `refusalOf` answers; fails when it was not refused. */
export function refusalOfCall(f: () => unknown) {
  try {
    f();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, message: error.message, fields: error.fields, slots: error.extra?.slots };
  }
  throw new Error('it was not refused');
}
