import { z } from 'zod';
import { ExecutionViewSchema } from '../../schemas/http/executions';
import {
  FileDeleteQuerySchema,
  FileListItemSchema,
  FileListResponseSchema,
  FilePreviewResponseSchema,
  FileRenameBodySchema,
  FileSummaryResponseSchema,
  FilesListQuerySchema,
  FileWriteBodySchema,
} from '../../schemas/http/files';
import { defineContracts } from '../../src/http/openapi/contract';

/** files.route.ts: every change is a finished execution whose rollback undoes it. */
export const fileContracts = defineContracts('Files', [
  {
    method: 'get',
    path: '/api/files',
    summary: 'List files; `action=preview` or `action=summarize` with a `path` reads one',
    auth: 'sb',
    query: FilesListQuerySchema,
    responses: {
      200: {
        description: 'A page of files, a preview or a summary (by `action`)',
        schema: z.union([FileListResponseSchema, FilePreviewResponseSchema, FileSummaryResponseSchema]),
      },
    },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/files',
    summary: 'Create or replace a file (utf8 text or base64)',
    auth: 'sb',
    body: FileWriteBodySchema,
    bodyExample: { path: 'notes/hello.txt', data: 'Hello', visibility: 'private' },
    responses: { 201: z.object({ entry: FileListItemSchema, execution: ExecutionViewSchema }) },
    errors: [409, 413],
    idempotent: true,
  },
  {
    method: 'patch',
    path: '/api/files',
    summary: 'Rename (move) a file',
    auth: 'sb',
    body: FileRenameBodySchema,
    responses: {
      200: z.object({ entry: FileListItemSchema, previousPath: z.string(), execution: ExecutionViewSchema }),
    },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'delete',
    path: '/api/files',
    summary: 'Delete a file (or an empty directory)',
    auth: 'sb',
    query: FileDeleteQuerySchema,
    responses: {
      200: z.object({ path: z.string(), deleted: z.literal(true), execution: ExecutionViewSchema }),
    },
    errors: [404, 409],
    idempotent: true,
  },
]);
