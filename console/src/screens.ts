/**
 * The console's screens, in the order of the navigation. A new screen is one file in screens/
 * (a component taking ScreenProps) and one line here (console/README.md).
 */
import type { FunctionComponent } from 'preact';
import { ChatScreen } from './screens/chat';
import { EventsScreen } from './screens/events';
import { PermissionsScreen } from './screens/permissions';
import { StoreScreen } from './screens/store';
import { WhyNotScreen } from './screens/why-not';
import type { Session } from './session';
import type { Place } from './types';

export type SetPlace = (next: Place | ((current: Place | null) => Place | null)) => void;

export interface ScreenProps {
  session: Session;
  /** The guild and channel picked, shared by every screen. */
  place: Place | null;
  /** A place, or a change of the current one (a default applies only while the user has not picked). */
  setPlace: SetPlace;
}

export interface Screen {
  /** In the address: /console#id. */
  id: string;
  title: string;
  component: FunctionComponent<ScreenProps>;
}

export const SCREENS: Screen[] = [
  { id: 'chat', title: 'Chat', component: ChatScreen },
  { id: 'events', title: 'Events', component: EventsScreen },
  { id: 'why-not', title: 'Why not?', component: WhyNotScreen },
  { id: 'permissions', title: 'Permissions', component: PermissionsScreen },
  { id: 'store', title: 'Store', component: StoreScreen },
];
