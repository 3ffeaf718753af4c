/**
 * Bounds on one HTTP exchange of the JDK's {@link java.net.http.HttpClient}, for every package that calls a
 * provider ({@code llm}, {@code provider}, {@code batch}): a whole-call deadline ({@link io.quotaflow.http.BoundedCall}:
 * connect, headers and body, the exchange aborted and its connection closed when it passes) and caps on what an
 * answer may hold ({@link io.quotaflow.http.BoundedBodies}: a whole answer's bytes, or a streamed answer's bytes per
 * line); and {@link io.quotaflow.http.AsyncPool}, which keeps the client's answers on pooled threads on a machine of
 * two cores or fewer. Depends on the JDK only.
 */
package io.quotaflow.http;
