package io.quotaflow.dispatch.outcome;

import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.records.Classification;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one decision of the {@link OutcomeApplier} does, as values, collected before anything is applied: the
 * ledger's changes, how each ticket ended here (its status, the cache's followers), the records to forward
 * (built, so serialized, already), the metrics' notices, and the choices the scope's executor makes when it
 * applies them (a too-large ticket's context fallback, a missed deadline's stale answer). The executor applies
 * them in a fixed order: ledger, statuses, cache, records, notices, then the choices. A decision that throws
 * while it is collected has changed nothing.
 */
public final class Effects {

    /** A change of the ledger. */
    public sealed interface LedgerChange permits Take, Finish, Retried, Requeue, Withdraw, Lead {
    }

    /** The waiting tickets {@code ids} leave the queue and the store ({@code DispatchLedger.take}); a spilled one is finished. */
    public record Take(List<String> ids) implements LedgerChange {
    }

    /** The ticket is done here ({@code DispatchLedger.finish}). */
    public record Finish(WorkItem item) implements LedgerChange {
    }

    /** The ticket went to {@code tickets.retry} ({@code DispatchLedger.retried}). */
    public record Retried(WorkItem item) implements LedgerChange {
    }

    /** The tickets wait again ({@code DispatchLedger.requeue}). */
    public record Requeue(List<WorkItem> items) implements LedgerChange {
    }

    /** The copy of ticket {@code id} held here goes ({@code DispatchLedger.withdraw}): a newer copy follows or is answered. */
    public record Withdraw(String id) implements LedgerChange {
    }

    /** A follower of an identical ticket that left leads now: the ledger takes it ({@code DispatchLedger.accept}). */
    public record Lead(WorkItem item) implements LedgerChange {
    }

    /** How a ticket ended here: its status, and what its followers in the cache share. */
    public sealed interface Ending permits Classified, DeadLettered, RetriedAs, Requeued, Cancelled, HandedOff, AnsweredFromCache,
            Following, FollowedIntoDeadLetter {
    }

    /** Waits for the answer of an identical ticket here (status {@code following}); nothing written yet. */
    public record Following(WorkItem item) implements Ending {
    }

    /** A follower dead-lettered with the identical ticket it followed (its record among the same effects). */
    public record FollowedIntoDeadLetter(WorkItem item, String kind) implements Ending {
    }

    /** Answered from the cache (a live or a stale answer), no call: with {@code leaves}, its next follower here leads. */
    public record AnsweredFromCache(WorkItem item, boolean leaves) implements Ending {
    }

    /** Classified by its call as {@code result}. */
    public record Classified(WorkItem item, Classification result) implements Ending {
    }

    /** Dead-lettered. */
    public record DeadLettered(WorkItem item, String kind, int status, String message) implements Ending {
    }

    /** To the retry topic after a {@code kind} failure. */
    public record RetriedAs(WorkItem item, String kind) implements Ending {
    }

    /** The tickets wait again. */
    public record Requeued(List<WorkItem> items) implements Ending {
    }

    /** Cancelled while its call was out, and not answered by it: it ends, nothing written. */
    public record Cancelled(WorkItem item) implements Ending {
    }

    /** Handed off to people ({@code tickets.handoff}). */
    public record HandedOff(WorkItem item, String reason) implements Ending {
    }

    /** A choice the executor makes when it applies: {@code otherwise} applies when the first way is not open. */
    public sealed interface Choice permits ContextFallback, StaleAnswer {
        Effects otherwise();
    }

    /** A too-large ticket, already finished here, moves to a context fallback of its route if it has one. */
    public record ContextFallback(WorkItem item, Effects otherwise) implements Choice {
    }

    /** A ticket that will miss its deadline is answered from a stale cache entry if there is one (then finished here). */
    public record StaleAnswer(WorkItem item, Effects otherwise) implements Choice {
    }

    private final List<LedgerChange> ledger = new ArrayList<>();
    private final List<Ending> endings = new ArrayList<>();
    private final List<Record<String, Outbound>> records = new ArrayList<>();
    private final List<Consumer<DispatcherListener>> notices = new ArrayList<>();
    private final List<Choice> choices = new ArrayList<>();

    /** Nothing to do. */
    public static Effects none() {
        return new Effects();
    }

    Effects ledger(LedgerChange change) {
        ledger.add(change);
        return this;
    }

    Effects ended(Ending ending) {
        endings.add(ending);
        return this;
    }

    Effects forward(Record<String, Outbound> record) {
        records.add(record);
        return this;
    }

    Effects notice(Consumer<DispatcherListener> notice) {
        notices.add(notice);
        return this;
    }

    Effects choose(Choice choice) {
        choices.add(choice);
        return this;
    }

    /** Adds everything {@code other} holds after what this holds. */
    public Effects and(Effects other) {
        ledger.addAll(other.ledger);
        endings.addAll(other.endings);
        records.addAll(other.records);
        notices.addAll(other.notices);
        choices.addAll(other.choices);
        return this;
    }

    public List<LedgerChange> ledgerChanges() {
        return Collections.unmodifiableList(ledger);
    }

    public List<Ending> endings() {
        return Collections.unmodifiableList(endings);
    }

    public List<Record<String, Outbound>> records() {
        return Collections.unmodifiableList(records);
    }

    public List<Consumer<DispatcherListener>> notices() {
        return Collections.unmodifiableList(notices);
    }

    public List<Choice> choices() {
        return Collections.unmodifiableList(choices);
    }

    public boolean isEmpty() {
        return ledger.isEmpty() && endings.isEmpty() && records.isEmpty() && notices.isEmpty() && choices.isEmpty();
    }
}
