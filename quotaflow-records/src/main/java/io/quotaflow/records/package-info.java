/**
 * quotaflow's record contract, for the teams that produce tickets or consume results and dead
 * letters: {@link io.quotaflow.records.Ticket} and its {@link io.quotaflow.records.TicketSerde},
 * {@link io.quotaflow.records.Classification} and its {@link io.quotaflow.records.ClassificationSerde},
 * and the dead-letter header names ({@link io.quotaflow.records.DeadLetterHeaders}); JSON Schemas
 * (draft 2020-12) of all three under {@code schemas/} in this jar.
 */
package io.quotaflow.records;
