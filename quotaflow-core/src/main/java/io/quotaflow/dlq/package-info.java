/**
 * The dead-letter topic's tools: browsing and statistics ({@code DeadLetterStats},
 * {@code DeadLetterBrowser}), and the paced, fenced replay of dead letters to the input topics
 * ({@code DeadLetterReplayer}). A client of the topics like the commands; the dispatcher does not
 * depend on it.
 */
package io.quotaflow.dlq;
