/**
 * Logging set-up of the command line: the text and JSON layouts ({@code JsonLineLayout}), the
 * level and format chosen at start ({@code LogSetup}), and the Kafka warnings expected in a healthy
 * run. Logback only; it does not depend on the commands.
 */
package io.quotaflow.logging;
