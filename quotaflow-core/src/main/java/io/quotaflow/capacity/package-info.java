/**
 * Capacity planning ({@code quotaflow plan}): what a provider's limits allow, which one binds, how many
 * calls must be in flight to use it (Little's law) and how long a backlog takes, from figures given or
 * measured on real tickets with a route's tokenizer, prompt and batch size. Pure arithmetic; no I/O.
 */
package io.quotaflow.capacity;
