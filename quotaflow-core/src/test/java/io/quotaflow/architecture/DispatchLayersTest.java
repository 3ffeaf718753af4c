package io.quotaflow.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dispatch's layers (docs/design.md, "Package layout"): effects flow one way. The ledger knows no other
 * dispatch package; the planner, the limiter and the callers know neither the outcomes nor the executor;
 * the outcomes and the reports know not the executor. Policies (the planner's package and every
 * {@code *Policy}) import no Kafka; only the executor's package and the topology touch {@link ProcessorContext},
 * and in dispatch only {@code DispatchOutput} forwards a record; no helper even holds a way to write one (a
 * {@code ProcessorContext}, a {@code DispatchOutput}, a {@code Consumer} of records): helpers return values.
 */
class DispatchLayersTest {

    private static final String DISPATCH = "io.quotaflow.dispatch";

    private static final JavaClasses CORE = new ClassFileImporter().withImportOption(PackageCyclesTest.PRODUCTION_ONLY)
            .importPackages("io.quotaflow");

    static ArchRule layer(String pkg, String... above) {
        return noClasses().that().resideInAPackage(pkg).should().dependOnClassesThat().resideInAnyPackage(above)
                .because("effects flow one way: " + pkg + " sits below " + String.join(", ", above));
    }

    /** No policy imports Kafka: classes of {@code planPackage} and every class named {@code *Policy} under {@code root}. */
    static ArchRule policiesImportNoKafka(String root, String planPackage) {
        return noClasses().that().resideInAPackage(planPackage).or().haveSimpleNameEndingWith("Policy").and().resideInAPackage(root)
                .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
                .because("a policy decides from values; the executor talks to Kafka");
    }

    /**
     * The planner's package ({@code DispatchPlanner}, {@code DispatchView}, {@code DispatchStep}, {@code DeadlineSweep} and
     * their nested types) decides from values: it depends on no ledger class but the values a view carries ({@code Backlog}, a proposal and its
     * refs), on no provider model or limiter behind one, on no Kafka and on no time type ({@code java.time}, Kafka's
     * {@code Time}, {@code EpochNanoClock}).
     */
    static ArchRule plannerDecidesFromValues(String plan, String ledger) {
        DescribedPredicate<JavaClass> live = new DescribedPredicate<>("a live ledger, provider model, Kafka or time class") {
            @Override
            public boolean test(JavaClass c) {
                String name = c.getName();
                boolean ledgerValue = name.endsWith(".Backlog") || name.endsWith(".PendingQueue$Proposal") || name.endsWith(".PendingQueue$Ref");
                return ((c.getPackageName().startsWith(ledger) || c.getPackageName().startsWith(DISPATCH + ".queue")) && !ledgerValue)
                        || c.getSimpleName().equals("ProviderModel") || c.getSimpleName().equals("BatchLimiter")
                        || name.startsWith("org.apache.kafka.") || name.startsWith("java.time.")
                        || name.equals("io.quotaflow.quota.EpochNanoClock");
            }
        };
        return noClasses().that().resideInAPackage(plan)
                .should().dependOnClassesThat(live)
                .because("the planner decides from a value read first: no ledger, no provider model, no Kafka, no clock");
    }

    /** Only {@code executor} (the package, not its sub-packages) and {@code topology} depend on {@link ProcessorContext}. */
    static ArchRule onlyExecutorAndTopologyTouchTheContext(String root, String executor, String topology) {
        return noClasses().that().resideInAPackage(root).and().resideOutsideOfPackages(executor, topology)
                .should().dependOnClassesThat().areAssignableTo(ProcessorContext.class)
                .because("only the executor and the topology touch ProcessorContext");
    }

    /** In {@code dispatch..}, only {@code DispatchOutput} calls (or refers to, {@code context::forward}) {@code ProcessorContext.forward}. */
    static ArchRule oneForward(String dispatch) {
        return noClasses().that().resideInAPackage(dispatch).and().doNotHaveSimpleName("DispatchOutput")
                .should().accessTargetWhere(DescribedPredicate.describe("ProcessorContext.forward",
                        (JavaAccess<?> access) -> access.getName().equals("forward") && access.getTargetOwner().isAssignableTo(ProcessorContext.class)))
                .because("one place forwards dispatch's records");
    }

    /**
     * In {@code dispatch..}, no class but the {@code writers} (by simple name: the output, the executor, the processor)
     * has a field holding a {@link ProcessorContext}, a {@code DispatchOutput} or a {@code Consumer} of {@code Record}s.
     */
    static ArchRule helpersHoldNoWriter(String dispatch, String... writers) {
        Set<String> allowed = Set.of(writers);
        String prefix = dispatch.replace("..", "");
        return fields().that().areDeclaredInClassesThat(DescribedPredicate.describe("in " + dispatch + " other than " + allowed,
                        (JavaClass c) -> (c.getPackageName().equals(prefix) || c.getPackageName().startsWith(prefix + "."))
                                && !allowed.contains(topLevel(c).getSimpleName())))
                .should(new ArchCondition<JavaField>("not hold a ProcessorContext, a DispatchOutput or a Consumer of records") {
                    @Override
                    public void check(JavaField field, ConditionEvents events) {
                        if (writer(field.getType())) {
                            events.add(SimpleConditionEvent.violated(field, field.getFullName() + " holds a way to write records"));
                        }
                    }
                }).allowEmptyShould(true).because("helpers return values; the executor applies them");
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass out = c;
        while (out.getEnclosingClass().isPresent()) {
            out = out.getEnclosingClass().get();
        }
        return out;
    }

    private static boolean writer(JavaType type) {
        JavaClass raw = type.toErasure();
        if (raw.isAssignableTo(ProcessorContext.class) || raw.getSimpleName().equals("DispatchOutput")) {
            return true;
        }
        return raw.isAssignableTo(java.util.function.Consumer.class) && type instanceof JavaParameterizedType p
                && p.getActualTypeArguments().stream().anyMatch(a -> a.toErasure().getName().equals(
                        org.apache.kafka.streams.processor.api.Record.class.getName()));
    }

    @Test
    void shouldLetNoHelperHoldAWayToWriteRecords() {
        helpersHoldNoWriter(DISPATCH + "..", "DispatchOutput", "EffectExecutor", "DispatcherProcessor").check(CORE);
    }

    @Test
    void shouldRejectAHelperThatHoldsAWriter() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.quotaflow.architecture.layerfixture.dispatch");

        assertThatThrownBy(() -> helpersHoldNoWriter("io.quotaflow.architecture.layerfixture.dispatch..").check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("HoldsWriter.forward").hasMessageContaining("HoldsWriter.context");
    }

    /** The queue's mutators ({@code add}, {@code replace}, {@code remove}, {@code admit}) are called by the ledger alone. */
    static ArchRule onlyTheLedgerChangesTheQueue(String queue, String ledger) {
        return noClasses().that().resideOutsideOfPackages(queue, ledger)
                .should().callMethodWhere(DescribedPredicate.describe("a PendingQueue mutator",
                        (com.tngtech.archunit.core.domain.JavaMethodCall call) -> call.getTargetOwner().getSimpleName().equals("PendingQueue")
                                && Set.of("add", "replace", "remove", "admit").contains(call.getName())))
                .because("the ledger keeps the queue, its spill and its statuses in step; everyone else reads");
    }

    /** The ledger's mutators, called by the executor (the {@code dispatch} package itself) and the ledger alone. */
    static final Set<String> LEDGER_MUTATORS = Set.of("accept", "take", "finish", "retried", "requeue", "withdraw",
            "expireSpilled", "refill", "promoteDue", "restore", "cancelWhileOut", "admit");

    /** Outside {@code executor} and {@code ledger}, no class calls a {@code DispatchLedger} mutator: policies and gates return values. */
    static ArchRule onlyTheExecutorChangesTheLedger(String executor, String ledger) {
        return noClasses().that().resideOutsideOfPackages(executor, ledger)
                .should().callMethodWhere(DescribedPredicate.describe("a DispatchLedger mutator",
                        (com.tngtech.archunit.core.domain.JavaMethodCall call) -> call.getTargetOwner().getSimpleName().equals("DispatchLedger")
                                && LEDGER_MUTATORS.contains(call.getName())))
                .because("a decision returns its ledger changes as values; the executor applies them");
    }

    @Test
    void shouldLetOnlyTheExecutorChangeTheLedger() {
        onlyTheExecutorChangesTheLedger(DISPATCH, DISPATCH + ".ledger..").check(CORE);
        // the rule sees the executor's own calls when the executor is not exempt
        assertThatThrownBy(() -> onlyTheExecutorChangesTheLedger("io.quotaflow.nowhere", DISPATCH + ".ledger..").check(CORE))
                .isInstanceOf(AssertionError.class).hasMessageContaining("EffectExecutor").hasMessageContaining("DispatchLedger.withdraw");
        assertThatThrownBy(() -> onlyTheLedgerChangesTheQueue("io.quotaflow.nowhere", DISPATCH + ".ledger..").check(CORE))
                .isInstanceOf(AssertionError.class).hasMessageContaining("PendingQueue.");
    }

    @Test
    void shouldKeepTheQueueBelowTheLedgerAndLetOnlyTheLedgerChangeIt() {
        layer(DISPATCH + ".queue..", DISPATCH + ".ledger..", DISPATCH, DISPATCH + ".plan..", DISPATCH + ".call..",
                DISPATCH + ".limit..", DISPATCH + ".outcome..", DISPATCH + ".report..").check(CORE);
        onlyTheLedgerChangesTheQueue(DISPATCH + ".queue..", DISPATCH + ".ledger..").check(CORE);
    }

    @Test
    void shouldKeepTheLedgerBelowEveryOtherDispatchPackage() {
        layer(DISPATCH + ".ledger..", DISPATCH, DISPATCH + ".plan..", DISPATCH + ".call..", DISPATCH + ".limit..",
                DISPATCH + ".outcome..", DISPATCH + ".report..").check(CORE);
    }

    @Test
    void shouldKeepThePlannerAndTheCallsBelowOutcomesAndExecutor() {
        layer(DISPATCH + ".plan..", DISPATCH, DISPATCH + ".limit..", DISPATCH + ".outcome..", DISPATCH + ".report..").check(CORE);
        layer(DISPATCH + ".call..", DISPATCH, DISPATCH + ".plan..", DISPATCH + ".limit..", DISPATCH + ".outcome..", DISPATCH + ".report..")
                .check(CORE);
        // what is known of the provider (the limiter facade) sits above the planner and the calls, below outcomes and reports
        layer(DISPATCH + ".limit..", DISPATCH, DISPATCH + ".outcome..", DISPATCH + ".report..").check(CORE);
    }

    @Test
    void shouldKeepOutcomesAndReportsBelowTheExecutor() {
        layer(DISPATCH + ".outcome..", DISPATCH).check(CORE);
        layer(DISPATCH + ".report..", DISPATCH, DISPATCH + ".outcome..").check(CORE);
    }

    @Test
    void shouldLetThePlannerDecideFromValuesAlone() {
        plannerDecidesFromValues(DISPATCH + ".plan", DISPATCH + ".ledger").check(CORE);
    }

    @Test
    void shouldRejectAPlannerThatReadsTheClockOrTheLedger() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.quotaflow.architecture.layerfixture.planner");

        assertThatThrownBy(() -> plannerDecidesFromValues("io.quotaflow.architecture.layerfixture.planner",
                "io.quotaflow.architecture.layerfixture.planner.ledger").check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("java.time.Duration").hasMessageContaining("Store");
    }

    @Test
    void shouldKeepKafkaOutOfPolicies() {
        policiesImportNoKafka("io.quotaflow..", DISPATCH + ".plan..").check(CORE);
    }

    @Test
    void shouldLetOnlyTheExecutorAndTheTopologyTouchTheProcessorContext() {
        onlyExecutorAndTopologyTouchTheContext("io.quotaflow..", DISPATCH, "io.quotaflow.topology").check(CORE);
    }

    @Test
    void shouldForwardDispatchRecordsInOnePlace() {
        oneForward(DISPATCH + "..").check(CORE);
    }

    @Test
    void shouldRejectAHelperThatForwardsItself() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.quotaflow.architecture.layerfixture.dispatch");

        assertThatThrownBy(() -> oneForward("io.quotaflow.architecture.layerfixture.dispatch..").check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Leaky.write").hasMessageContaining("LeakyReference.sink");
        assertThatThrownBy(() -> onlyExecutorAndTopologyTouchTheContext("io.quotaflow.architecture..", "io.quotaflow.none",
                "io.quotaflow.none").check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Leaky");
    }

    @Test
    void shouldRejectAPolicyThatImportsKafka() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.quotaflow.architecture.layerfixture.policy");

        assertThatThrownBy(() -> policiesImportNoKafka("io.quotaflow.architecture..", "io.quotaflow.none").check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("KafkaPolicy");
    }

    @Test
    void shouldRejectALedgerThatKnowsThePlanner() {
        JavaClasses cycle = new ClassFileImporter().importPackages("io.quotaflow.architecture.cyclefixture");

        assertThatThrownBy(() -> layer("io.quotaflow.architecture.cyclefixture.c..", "io.quotaflow.architecture.cyclefixture.a..")
                .check(cycle)).isInstanceOf(AssertionError.class).hasMessageContaining("Third");
    }
}
