package dev.collsim.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The boundaries of collsim's modules, checked on the main classes of every module at each {@code mvn verify}
 * (docs/DESIGN.md section 2). Modules and facades are listed in {@link Modules}.
 *
 * <p>Rules that today's code still breaks are wrapped in {@link FreezingArchRule}: the violations known when the
 * rule was written are stored under {@code src/test/resources/archunit-store} (committed); a new violation fails
 * the build, and a fixed one is dropped from the store on the next run, so the store only shrinks. To re-record
 * after a deliberate change of the facade lists, run once with {@code -Darchunit.freeze.refreeze=true}.
 */
@AnalyzeClasses(packages = "dev.collsim", importOptions = ImportOption.DoNotIncludeTests.class)
final class ArchitectureTest {

    /**
     * Root packages whose sub-packages may use the root's types although the root uses theirs: the root holds the
     * family's entry point and its shared types (the CLI's root command and options, {@code topology.io}'s loader
     * and hints, the executor's run spec and exception).
     */
    private static final List<String> FAMILY_ROOTS = List.of("dev.collsim.cli", "dev.collsim.topology.io",
            "dev.collsim.executor");

    private ArchitectureTest() {
    }

    /** JavaCPP and CUDA bindings stay in the executor, so the rest builds and runs without GPUs. */
    @ArchTest
    static final ArchRule BYTEDECO_ONLY_IN_EXECUTOR = noClasses()
            .that().resideOutsideOfPackage("dev.collsim.executor..")
            .should().dependOnClassesThat().resideInAPackage("org.bytedeco..")
            .because("only the executor talks to NCCL and CUDA (DESIGN.md section 2)");

    /**
     * Dependencies point one way: topology-model &lt;- simulator &lt;- validation &lt;- reports &lt;- cli and
     * topology-model &lt;- executor &lt;- cli; simulator and executor never see each other, so a measurement is
     * never shaped by a prediction.
     */
    @ArchTest
    static final ArchRule DEPENDENCIES_POINT_ONE_WAY = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer(Modules.TOPOLOGY_MODEL.artifact()).definedBy(Modules.TOPOLOGY_MODEL.packages())
            .layer(Modules.SIMULATOR.artifact()).definedBy(Modules.SIMULATOR.packages())
            .layer(Modules.EXECUTOR.artifact()).definedBy(Modules.EXECUTOR.packages())
            .layer(Modules.VALIDATION.artifact()).definedBy(Modules.VALIDATION.packages())
            .layer(Modules.REPORTS.artifact()).definedBy(Modules.REPORTS.packages())
            .layer(Modules.CLI.artifact()).definedBy(Modules.CLI.packages())
            .layer(Modules.SWEEP.artifact()).definedBy(Modules.SWEEP.packages())
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("sweep").mayNotBeAccessedByAnyLayer()
            .whereLayer("reports").mayOnlyBeAccessedByLayers("cli", "sweep")
            .whereLayer("validation").mayOnlyBeAccessedByLayers("reports", "cli", "sweep")
            .whereLayer("simulator").mayOnlyBeAccessedByLayers("validation", "reports", "cli", "sweep")
            .whereLayer("executor").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("topology-model")
            .mayOnlyBeAccessedByLayers("simulator", "executor", "validation", "reports", "cli", "sweep");

    /** No dependency cycle between modules (each module one slice). */
    @ArchTest
    static final ArchRule NO_CYCLES_BETWEEN_MODULES = slices()
            .assignedFrom(new ModuleSlices())
            .should().beFreeOfCycles();

    /**
     * No dependency cycle between the packages of collsim, inside a module or across; only a sub-package's use of
     * its {@link #FAMILY_ROOTS family root} does not count. Every other cycle fails, siblings included.
     */
    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES = noPackageCycles();

    private static ArchRule noPackageCycles() {
        SliceRule rule = slices().matching("dev.collsim.(**)").should().beFreeOfCycles();
        for (String root : FAMILY_ROOTS) {
            rule = rule.ignoreDependency(resideInAPackage(root + ".."), resideInAPackage(root));
        }
        return rule;
    }

    /** Only the facade of topology-model ({@link Modules}) is used from outside it. */
    @ArchTest
    static final ArchRule TOPOLOGY_MODEL_FACADE = onlyFacadeUsed(Modules.TOPOLOGY_MODEL);

    /** Only the facade of simulator is used from outside it. */
    @ArchTest
    static final ArchRule SIMULATOR_FACADE = onlyFacadeUsed(Modules.SIMULATOR);

    /** Only the facade of executor is used from outside it. */
    @ArchTest
    static final ArchRule EXECUTOR_FACADE = onlyFacadeUsed(Modules.EXECUTOR);

    /** Only the facade of validation is used from outside it. */
    @ArchTest
    static final ArchRule VALIDATION_FACADE = onlyFacadeUsed(Modules.VALIDATION);

    /** Only the facade of reports is used from outside it. */
    @ArchTest
    static final ArchRule REPORTS_FACADE = onlyFacadeUsed(Modules.REPORTS);

    /** Nothing outside cli uses cli. */
    @ArchTest
    static final ArchRule CLI_FACADE = onlyFacadeUsed(Modules.CLI);

    /** Nothing outside sweep uses sweep (a plain rule: it has no known violation to freeze). */
    @ArchTest
    static final ArchRule SWEEP_UNUSED = noClasses()
            .that().resideOutsideOfPackages(Modules.SWEEP.packages())
            .should().dependOnClassesThat().resideInAnyPackage(Modules.SWEEP.packages())
            .because("the sweep module runs on Spark from its own launcher entry point; the cli jar stays small")
            .allowEmptyShould(true);

    /**
     * @param m a module
     * @return the frozen rule that classes outside {@code m} use only its facade packages; the rule's name (the key
     *         of its frozen violations) does not contain the list, so a changed list keeps its store
     */
    private static ArchRule onlyFacadeUsed(Modules m) {
        return FreezingArchRule.freeze(noClasses()
                .that().resideOutsideOfPackages(m.packages())
                .should().dependOnClassesThat(resideInAnyPackage(m.packages()).and(not(resideInAnyPackage(m.facade())))
                        .and(not(DescribedPredicate.describe("facade types of " + m.artifact(),
                                (JavaClass c) -> m.isFacadeType(c.getName())))))
                .as("only the facade of " + m.artifact() + " is used from outside it")
                .allowEmptyShould(true));
    }

    /** Assigns each class to the slice of its module. */
    private static final class ModuleSlices implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            Optional<Modules> m = Arrays.stream(Modules.values())
                    .filter(x -> resideInAnyPackage(x.packages()).test(c)).findFirst();
            return m.map(x -> SliceIdentifier.of(x.artifact()))
                    .orElse(SliceIdentifier.ignore());
        }

        @Override
        public String getDescription() {
            return "modules";
        }
    }
}
