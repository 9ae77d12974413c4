service S {
    @name("get weather") tool spaces();
    @name("") tool empty();
    @name("héllo") tool accent();
    @name("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa") tool too_long();
    @name("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb") tool too_long_by_one();
    tool a_derived_name_that_is_far_too_long_to_be_a_tool_name_because_it_goes_on_and_on_and_on_past_the_limit_of_one_hundred_and_twenty_eight();
}
