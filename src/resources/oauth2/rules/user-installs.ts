/** The apps a user installed to their account, read from their standing authorizations. */

/** The application ids of the authorizations that install the app to the account, ascending as snowflakes. */
export function installedApps(authorizations: readonly { application_id: string; user_install: boolean }[]): string[] {
  return authorizations
    .filter((authorization) => authorization.user_install)
    .map((authorization) => authorization.application_id)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
