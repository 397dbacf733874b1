package dev.muster.engine;

import com.google.inject.AbstractModule;
import com.google.inject.Scopes;
import dev.muster.engine.actions.AllocateActionModule;
import dev.muster.engine.actions.BackfillActionModule;
import dev.muster.engine.actions.EnqueueActionModule;
import dev.muster.engine.actions.PreemptActionModule;
import dev.muster.engine.actions.ReclaimActionModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.plugins.binpack.BinpackPluginModule;
import dev.muster.engine.plugins.capacity.CapacityPluginModule;
import dev.muster.engine.plugins.conformance.ConformancePluginModule;
import dev.muster.engine.plugins.dag.DagPluginModule;
import dev.muster.engine.plugins.drf.DrfPluginModule;
import dev.muster.engine.plugins.executorreservation.ExecutorReservationPluginModule;
import dev.muster.engine.plugins.gang.GangPluginModule;
import dev.muster.engine.plugins.networktopologyaware.NetworkTopologyAwarePluginModule;
import dev.muster.engine.plugins.nodeorder.NodeOrderPluginModule;
import dev.muster.engine.plugins.overcommit.OvercommitPluginModule;
import dev.muster.engine.plugins.placeable.PlaceablePluginModule;
import dev.muster.engine.plugins.predicates.PredicatesPluginModule;
import dev.muster.engine.plugins.priority.PriorityPluginModule;
import dev.muster.engine.plugins.proportion.ProportionPluginModule;
import dev.muster.engine.plugins.resourcestrategyfit.ResourceStrategyFitPluginModule;
import dev.muster.engine.plugins.shortestfirst.ShortestFirstPluginModule;
import dev.muster.engine.plugins.sla.SlaPluginModule;
import dev.muster.engine.plugins.tasktopology.TaskTopologyPluginModule;


/** The engine with every built-in action and plugin, and the configuration loader that knows them. */
public final class EngineModule extends AbstractModule {
    @Override
    protected void configure() {
        install(new EnqueueActionModule());
        install(new AllocateActionModule());
        install(new BackfillActionModule());
        install(new PreemptActionModule());
        install(new ReclaimActionModule());

        install(new GangPluginModule());
        install(new PriorityPluginModule());
        install(new ConformancePluginModule());
        install(new PredicatesPluginModule());
        install(new DrfPluginModule());
        install(new NodeOrderPluginModule());
        install(new BinpackPluginModule());
        install(new ResourceStrategyFitPluginModule());
        install(new ProportionPluginModule());
        install(new CapacityPluginModule());
        install(new OvercommitPluginModule());
        install(new SlaPluginModule());
        install(new NetworkTopologyAwarePluginModule());
        install(new TaskTopologyPluginModule());
        install(new DagPluginModule());
        install(new PlaceablePluginModule());
        install(new ShortestFirstPluginModule());
        install(new ExecutorReservationPluginModule());

        bind(SchedulerConfigLoader.class).in(Scopes.SINGLETON);
    }
}
