export {
  createSandbox,
  SANDBOX_DEFAULTS,
  type ExecuteOptions,
  type Sandbox,
  type SandboxOptions,
  type SandboxResult,
} from './create-sandbox';
