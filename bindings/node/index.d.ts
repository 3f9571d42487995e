export function binary(): string;
export interface Served {
  baseURL: string;
  root: string;
  url(format?: "chat" | "responses" | "messages" | "gemini", name?: string): string;
  readonly stderr: string;
  close(): Promise<void>;
}
export function serve(options?: { cassette?: string | string[]; script?: string | string[]; quirk?: string; fault?: string; match?: "body" | "turn"; journal?: string; cwd?: string }): Promise<Served>;
export interface CaseResult { id: string; tier: string; status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED"; details: string; expected_failure?: boolean; [key: string]: unknown }
export type Report = CaseResult[] & { exitCode: number; stdout: string; stderr: string };
export interface ConformOptions { command: string[]; api?: string; baseline?: string; cases?: string[]; caseFiles?: string[]; calls?: string[]; timeout?: string; parallel?: number; cwd?: string; env?: Record<string, string> }
export function conform(options: ConformOptions): Promise<Report>;
export function conformTests(options: ConformOptions & { test?: (name: string, ...rest: unknown[]) => unknown }): Promise<Report>;
