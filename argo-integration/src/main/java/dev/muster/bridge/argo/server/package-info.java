/**
 * The Argo Server's API, for the calls Muster makes when an Argo Server is configured: get and list
 * workflows, resume and suspend them, and the server's version. {@link dev.muster.bridge.argo.server.ArgoServerClient}
 * wraps the client generated at build time from Argo v4.0.5's OpenAPI document ({@code src/main/openapi}).
 */
package dev.muster.bridge.argo.server;
