/**
 * What a scope reports: {@code DispatcherListener} (what the metrics and {@code /status} hear), {@code SnapshotTaker}
 * and the {@code DispatcherSnapshot} behind {@code /status} and the gauges, {@code QueueViews}, the live queue view
 * and the scope's pace, {@code TenantState}.
 */
package io.quotaflow.dispatch.report;
