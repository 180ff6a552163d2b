"""Every write to the tournament's data, one function per thing a user does.

An action owns its transaction, its row locks (the optimistic ``version`` checks included),
its activity-log entry and the cache-generation bump; views, commands, tasks and the
importer call actions and never save rows themselves.
"""
