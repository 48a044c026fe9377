package dev.rekon.rollouts;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

/**
 * Tells the other areas of this process what rollouts observed, as the CDI event {@link RolloutObserved}: after a
 * rollout function answered an event about a kpack Image or an ImageDeploy, and after this process wrote an
 * ImageDeploy's status (so that what follows the ImageDeploy here, a promotion with a stage listing it, hears of
 * the change when it is written, not once an ApiServerSource has seen it and sent it back). The one place rollouts
 * tell anything; tables replace it to record what was told.
 */
@ApplicationScoped
public class RolloutNotices {

    @Inject
    Event<RolloutObserved> observed;

    public void tell(RolloutObserved what) {
        observed.fire(what);
    }
}
