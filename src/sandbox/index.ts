export {
  createSandbox,
  SANDBOX_DEFAULTS,
  type ExecuteOptions,
  type Sandbox,
  type SandboxOptions,
  type SandboxResult,
} from './create-sandbox';
export { HOST_CALL_LIMITS, type HostCalls } from './host-channel';
