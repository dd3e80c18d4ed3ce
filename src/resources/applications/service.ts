/** The calling app as v10's application object (`/applications/@me`), and its edits. */
import { toWireApplication } from '../../core/world/wire.js';
import type { StoredApplication, WorldStore } from '../../store/store.js';
import type { EndpointService } from './endpoint-service.js';

export class ApplicationService {
  constructor(
    private readonly store: Pick<WorldStore, 'getUser'>,
    private readonly endpoints: EndpointService,
  ) {}

  /** The app with its owner, as v10 shows it to the app itself. */
  async current(app: StoredApplication): Promise<Record<string, unknown>> {
    const owner = await this.store.getUser(app.owner_id);
    return toWireApplication(app, app.keys.verifyKey, owner);
  }

  /** Applies an edit (today the interactions endpoint URL, verified first) and returns the result. */
  async update(app: StoredApplication, body: unknown): Promise<Record<string, unknown>> {
    return this.current(await this.endpoints.update(app, body));
  }
}
