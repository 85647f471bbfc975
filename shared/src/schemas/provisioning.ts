/**
 * Provisioning (SCIM, issue 28): the manager's tokens and settings, and the
 * SCIM routes' inputs. SCIM bodies are read by shared/src/domain/scim.ts, not
 * by zod: their errors must come back in the RFC's words and format.
 */
import { z } from 'zod';
import { requiredText } from './common';
import { budgetDollars } from './profile';

export const MAX_PROVISIONING_TOKENS = 10;
export const MAX_DEPARTMENT_BUDGETS = 50;

export const provisioningTokenSchema = z.object({
  tokenId: z.string(),
  name: z.string(),
  /** The token's first characters, to tell tokens apart. */
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().optional(),
  revokedAt: z.string().optional(),
});

export const departmentBudgetSchema = z.object({ department: z.string(), budgetCents: z.number().int() });

export const provisioningOutput = z.object({
  /** The address an identity provider calls: `<web origin>/api/scim/v2`. */
  baseUrl: z.string(),
  /** The monthly budget of people the identity provider adds, unless their department maps to another. */
  defaultBudgetCents: z.number().int(),
  departmentBudgets: z.array(departmentBudgetSchema),
  tokens: z.array(provisioningTokenSchema),
});

export const createProvisioningTokenInput = z.object({
  name: requiredText('Name is required', 40),
});

export const createdProvisioningTokenOutput = z.object({
  /** Shown once: only its hash is kept. */
  token: z.string(),
  tokenId: z.string(),
  name: z.string(),
});

export const provisioningTokenIdInput = z.object({ tokenId: z.string().min(1).max(64) });

export const provisioningSettingsInput = z.object({
  defaultBudget: budgetDollars,
  departmentBudgets: z
    .array(z.object({ department: requiredText('Department is required', 100), budget: budgetDollars }))
    .max(MAX_DEPARTMENT_BUDGETS, { error: `At most ${MAX_DEPARTMENT_BUDGETS} departments` })
    .default([])
    .refine((list) => new Set(list.map((d) => d.department.toLowerCase())).size === list.length, {
      error: 'Each department may be listed once',
    }),
});

/** SCIM inputs: loose objects (body, query and path merged by the wrapper); the service reads them. */
export const scimObjectInput = z.looseObject({});
export const scimIdInput = z.looseObject({ id: z.string().min(1).max(64) });
export const scimListInput = z.looseObject({
  filter: z.string().max(500).optional(),
  startIndex: z.string().max(10).optional(),
  count: z.string().max(10).optional(),
});
/** SCIM answers are built by domain/scim.ts in the RFC's shape. */
export const scimOutput = z.unknown();
