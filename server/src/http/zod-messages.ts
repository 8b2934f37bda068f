import * as z from 'zod/mini';

// zod/mini carries no issue messages (so the app's bundle stays small: a failed check reads
// "Invalid input"). The server answers with zod's English ones, as it always has: a
// VALIDATION_ERROR's errorMessage and issues read e.g. "Too big: expected string to have <=200 characters".
z.config(z.locales.en());
