"""The reinforcement-learning environment, in every game."""

import random

import numpy as np
import pytest

import gulbara
from gulbara import Env, GulbaraError


@pytest.mark.parametrize("game", gulbara.GAMES)
def test_a_random_episode_ends_with_a_reward(game):
    env = Env(game, seed=4)
    rng = random.Random(9)
    s = env.state
    done, reward, steps = False, 0, 0
    while not done:
        actions = env.legal_actions()
        assert len(actions) >= 2  # single-choice stages are played by the environment
        after = env.afterstates()
        assert after.shape == (len(actions), 2, 26)
        plays = env.plays()
        a = rng.choice(actions)
        actor = env.to_move
        expected_end = plays[a].end
        s, reward, done = env.step(a)
        steps += 1
        assert steps < 10_000
    assert s.is_over
    winner, points = s.result
    w, b = env.returns
    if winner is None:
        assert (w, b, reward) == (0, 0, 0)
    else:
        assert points >= 1 and w == -b and abs(w) == points
        assert reward == (points if actor == winner else -points)
    assert env.legal_actions() == []
    with pytest.raises(GulbaraError, match="reset"):
        env.step(0)
    assert expected_end is not None


def test_an_episode_is_its_seeds():
    def episode(seed):
        env = Env("backgammon", seed=seed)
        texts = []
        while not env.done:
            texts.append(env.state.text)
            env.step(0)
        return texts

    assert episode(12) == episode(12)
    assert episode(12) != episode(13)


def test_an_action_out_of_range_raises():
    env = Env("long_nardy", seed=1)
    with pytest.raises(GulbaraError, match="out of"):
        env.step(env.num_actions())
    obs = env.observation()
    assert obs.shape == (2, 26) and obs.dtype == np.int8
    s = env.reset(seed=2)
    assert s == env.state and not env.done
