package dev.collsim.validation.diagnose;

import java.util.List;

/** One diagnosis rule. Implementations are stateless. */
interface Check {

    /**
     * @param s what to look at
     * @return the findings (empty when the rule does not apply or finds nothing)
     */
    List<Finding> run(Subject s);
}
