import { z } from 'zod';
import { ExecutionViewSchema } from '../../schemas/http/executions';
import {
  MemoryDeleteQuerySchema,
  MemoryEntryViewSchema,
  MemoryExportResponseSchema,
  MemoryListQuerySchema,
  MemoryListResponseSchema,
  MemoryWriteBodySchema,
} from '../../schemas/http/memory';
import { MemoryNamespaceTypeSchema } from '../../schemas/documents/memory';
import { defineContracts } from '../../src/http/openapi/contract';

const WriteResponse = z.object({ entry: MemoryEntryViewSchema, execution: ExecutionViewSchema });

/** memory.route.ts: every change is a finished execution whose rollback puts the entry back. */
export const memoryContracts = defineContracts('Memory', [
  {
    method: 'get',
    path: '/api/memory',
    summary: 'Memory entries the caller may see (`export=1`: all of them as an export)',
    auth: 'sb',
    query: MemoryListQuerySchema,
    responses: {
      200: {
        description: 'The entries, or the export',
        schema: z.union([MemoryListResponseSchema, MemoryExportResponseSchema]),
      },
    },
  },
  {
    method: 'post',
    path: '/api/memory',
    summary: 'Write an entry (201 when new, 200 when replaced)',
    auth: 'sb',
    body: MemoryWriteBodySchema,
    bodyExample: { key: 'favourite-colour', content: { value: 'teal' }, tags: ['profile'] },
    responses: { 200: WriteResponse, 201: WriteResponse },
    errors: [409, 413],
    idempotent: true,
  },
  {
    method: 'delete',
    path: '/api/memory',
    summary: 'Delete an entry',
    auth: 'sb',
    query: MemoryDeleteQuerySchema,
    responses: {
      200: z.object({
        deleted: z.literal(true),
        key: z.string(),
        namespaceType: MemoryNamespaceTypeSchema,
        namespaceId: z.string(),
        execution: ExecutionViewSchema,
      }),
    },
    errors: [404],
    idempotent: true,
  },
]);
