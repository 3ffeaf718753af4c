/**
 * Token counting as the providers count: {@code TokenCounter} (jtokkit's encodings, a chat request's framing) and
 * the o200k splitter; shared by core (estimates, reservations) and the simulator (its own counts). Depends on
 * jtokkit only.
 */
package io.quotaflow.tokens;
