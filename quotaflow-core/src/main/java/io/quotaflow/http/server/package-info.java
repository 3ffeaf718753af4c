/**
 * The HTTP server of {@code /metrics}, {@code /health/live}, {@code /health/ready}, {@code /status} and
 * {@code /tickets/{id}} on Jetty's core API ({@link io.quotaflow.http.server.StatusServer}): its replies
 * ({@code Reply}), the {@code /status} page ({@code StatusPage}) and its connectors and TLS ({@code ServerParts}).
 * It serves what {@code metrics} and {@code status} compute; nothing in {@code metrics}, {@code status} or the
 * dispatch path depends on it ({@code Pipeline} starts it).
 */
package io.quotaflow.http.server;
