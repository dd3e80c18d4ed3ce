// Placeholder until the interactions benchmark lands (helper-6 replaces this file).
export async function runInteractionsBench(): Promise<{ lines: string[] }> {
  return { lines: ['not measured yet'] };
}
