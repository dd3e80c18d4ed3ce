/** Activity instances (v10): an entry point app reads one it launched; any other id is 10082. */
import type { APIActivityInstance } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import type { InteractionStore } from '../interactions/store.js';
import { isInstanceId, toWireActivityInstance } from './rules.js';

export interface ActivityInstancesDeps {
  instances: Pick<InteractionStore, 'getActivityInstance'>;
}

export class ActivityInstancesService {
  constructor(private readonly deps: ActivityInstancesDeps) {}

  /** The application's instance of `instanceId`; another application's, or none, is 10082. */
  async get(applicationId: string, instanceId: string): Promise<APIActivityInstance> {
    const instance = isInstanceId(instanceId)
      ? await this.deps.instances.getActivityInstance(applicationId, instanceId)
      : null;
    if (!instance) throw apiError('UnknownActivityInstance');
    return toWireActivityInstance(instance);
  }
}
