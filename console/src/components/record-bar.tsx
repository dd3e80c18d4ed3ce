/**
 * The Record button of the chat screen: while it records, each action of the signed-in user is a
 * step and what the user then sees its expectations (../recorder.ts); Stop shows the scenario as
 * YAML, with a Download button.
 */
import type { JSX } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import type { Tracked } from '../hooks';
import {
  addStep,
  newRecording,
  outcomeExpectations,
  refusalExpectation,
  scenarioFileName,
  scenarioYaml,
  type Recording,
} from '../recorder';
import type { Step } from '../../../src/core/scenarios/types';

export interface Recorder {
  recording: boolean;
  /** The user's action as a step (null when not recording); `app` names the application acted on. */
  step: (action: Record<string, unknown>, app?: string) => Step | null;
  /** The interaction a step sent: its outcome becomes the step's expectations. */
  follow: (interactionId: string, step: Step | null) => void;
  /** An interaction's state changed: a settled one completes its step. */
  settle: (tracked: Tracked) => void;
  /** The step's request was refused. */
  refused: (step: Step | null, error: unknown) => void;
}

/** How long Stop waits for the outcomes of interactions still followed before showing the scenario. */
const OUTCOME_WAIT_MS = 5_000;

export function useRecorder(
  username: string,
  channelName: string,
): {
  recorder: Recorder;
  bar: JSX.Element;
} {
  const [recording, setRecording] = useState(false);
  const [yaml, setYaml] = useState<{ text: string; file: string } | null>(null);
  const current = useRef<Recording>(newRecording());
  const following = useRef(new Map<string, Step>());
  /** Set between Stop and the last followed interaction's outcome (or the wait's end). */
  const stopping = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The scenario as recorded, shown once every followed interaction has its outcome. */
  const finish = () => {
    if (stopping.current !== null) clearTimeout(stopping.current);
    stopping.current = null;
    following.current.clear();
    const app = current.current.application;
    setYaml({ text: scenarioYaml(current.current, `${app ?? 'console'} session`), file: scenarioFileName(app) });
  };
  const recorder = useMemo<Recorder>(
    () => ({
      recording,
      step: (action, app) => {
        if (!recording) return null;
        if (app && current.current.application === null) current.current.application = app;
        return addStep(current.current, username, `#${channelName}`, action);
      },
      follow: (id, step) => {
        if (step) following.current.set(id, step);
      },
      settle: (tracked) => {
        const step = following.current.get(tracked.id);
        if (!step || tracked.state === 'pending' || tracked.state === 'deferred') return;
        following.current.delete(tracked.id);
        const expect = outcomeExpectations(tracked.state, tracked.response, tracked.failure_reason);
        if (expect.length > 0) step.expect = expect;
        if (stopping.current !== null && following.current.size === 0) finish();
      },
      refused: (step, error) => {
        if (step && error instanceof ApiError) step.expect = [refusalExpectation(error.status, error.body)];
      },
    }),
    [recording, username, channelName],
  );
  const start = () => {
    if (stopping.current !== null) clearTimeout(stopping.current);
    stopping.current = null;
    current.current = newRecording();
    following.current.clear();
    setYaml(null);
    setRecording(true);
  };
  // An answer the user already sees may not have reached the interaction's state yet: Stop waits
  // for the outcomes still followed (at most OUTCOME_WAIT_MS), so the last step keeps its expectations.
  const stop = () => {
    setRecording(false);
    if (following.current.size === 0) finish();
    else stopping.current = setTimeout(finish, OUTCOME_WAIT_MS);
  };
  const download = () => {
    if (!yaml) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([yaml.text], { type: 'application/yaml' }));
    link.download = yaml.file;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const bar = (
    <div class="record-bar">
      {recording ? (
        <button type="button" class="button secondary small" onClick={stop}>
          ■ Stop recording
        </button>
      ) : (
        <button type="button" class="button secondary small" onClick={start}>
          ● Record
        </button>
      )}
      {recording && (
        <span class="muted" role="status">
          Recording: each action becomes a step of a scenario.
        </span>
      )}
      {yaml && (
        <section class="recorded" aria-label="Recorded scenario">
          <pre>{yaml.text}</pre>
          <button type="button" class="button primary small" onClick={download}>
            Download {yaml.file}
          </button>
          <button type="button" class="button link small" onClick={() => setYaml(null)}>
            Close
          </button>
        </section>
      )}
    </div>
  );
  return { recorder, bar };
}
