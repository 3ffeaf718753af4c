/**
 * The internal work item ({@code WorkItem}) and its binary serde, as the dispatcher's stores and
 * the repartition topic hold it. Depends on {@code records} only.
 */
package io.quotaflow.ticket;
